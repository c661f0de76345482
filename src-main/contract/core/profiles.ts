// Profile changes as they arrive from the UI. Ids are best made by main (random suffix, never reused).
import { z } from 'zod';
import { feedKeyRefusal, insecureKeyRefusal, keyNeedsTlsConsent } from './key-origin.js';
import { PAPER_PROFILE_ID, Profile, ProfileId } from './settings.js';

const fields = Profile.shape;

export const NewProfileInput = z
  .strictObject({
    /** Optional: main generates a fresh, never-reused id when none is given (preferred). */
    id: ProfileId.refine((id) => id !== PAPER_PROFILE_ID, 'the paper profile id is reserved').optional(),
    name: fields.name,
    baseUrl: fields.baseUrl.refine((s) => s !== '', 'baseUrl is required'),
    strategy: fields.strategy,
    rateLimitPerSecond: fields.rateLimitPerSecond,
    feedUrl: fields.feedUrl,
    allowInsecureKey: fields.allowInsecureKey,
    sandbox: fields.sandbox,
  })
  .superRefine((p, ctx) => {
    if (keyNeedsTlsConsent(p.baseUrl) && p.allowInsecureKey !== true)
      ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: insecureKeyRefusal(p.baseUrl) });
    const feed = p.feedUrl && feedKeyRefusal(p.baseUrl, p.feedUrl, p.allowInsecureKey);
    if (feed) ctx.addIssue({ code: 'custom', path: ['feedUrl'], message: feed });
  });
export type NewProfileInput = z.input<typeof NewProfileInput>;

export const ProfileUpdate = z.strictObject({
  name: fields.name.optional(),
  baseUrl: fields.baseUrl.refine((s) => s !== '', 'baseUrl is required').optional(),
  strategy: z.string().trim().min(1, 'strategy cannot be empty').max(64).optional(),
  rateLimitPerSecond: z.number().int().min(1).max(100).optional(),
  /** '' clears it (the feed is derived from the base URL again); checked with the resulting base URL. */
  feedUrl: fields.feedUrl.or(z.literal('')),
  /** Checked with the profile's resulting base URL (core/profiles): http:// elsewhere needs it. */
  allowInsecureKey: fields.allowInsecureKey,
  sandbox: fields.sandbox,
});
export type ProfileUpdate = z.input<typeof ProfileUpdate>;

/** A profile as the UI lists it. */
export const ProfileView = Profile.extend({ active: z.boolean(), hasKey: z.boolean() });
export type ProfileView = z.infer<typeof ProfileView>;
