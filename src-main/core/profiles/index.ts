export { createProfiles, ProfileError } from './profiles.js';
export type { ProfileUpdated, Profiles, ProfilesOptions } from './profiles.js';
