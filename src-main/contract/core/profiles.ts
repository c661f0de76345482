// Profile changes as they arrive from the UI. Ids are made by main, never chosen by the renderer.
import { z } from 'zod';
import { Profile } from './settings.js';

const fields = Profile.shape;

export const NewProfileInput = z.strictObject({
  name: fields.name,
  baseUrl: fields.baseUrl.refine((s) => s !== '', 'baseUrl is required'),
  strategy: fields.strategy,
  rateLimitPerSecond: fields.rateLimitPerSecond,
});
export type NewProfileInput = z.input<typeof NewProfileInput>;

export const ProfileUpdate = z.strictObject({
  name: fields.name.optional(),
  baseUrl: fields.baseUrl.refine((s) => s !== '', 'baseUrl is required').optional(),
  strategy: z.string().trim().min(1, 'strategy cannot be empty').max(64).optional(),
  rateLimitPerSecond: z.number().int().min(1).max(100).optional(),
});
export type ProfileUpdate = z.input<typeof ProfileUpdate>;

/** A profile as the UI lists it. */
export const ProfileView = Profile.extend({ active: z.boolean(), hasKey: z.boolean() });
export type ProfileView = z.infer<typeof ProfileView>;
