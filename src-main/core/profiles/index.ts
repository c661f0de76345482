export { createProfiles, ProfileError } from './profiles.js';
export type { Profiles, ProfilesOptions } from './profiles.js';
