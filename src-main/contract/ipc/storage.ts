// What the core says of its files at rest: a journal found damaged at start (kept aside, what could be
// read saved into a fresh one) and a paper ledger that could not be opened (the paper profile
// unavailable until the paper account is reset). Sent whole as `session.storage` and in the snapshot.
import { z } from 'zod';

export const JournalRecoveryNotice = z.object({
  /** The damaged file, kept as it was. */
  backupPath: z.string(),
  /** Entries copied into the new journal. */
  saved: z.number().int().nonnegative(),
  /** Entries the damaged file held, when that could still be read. */
  total: z.number().int().nonnegative().nullable(),
  /** "The journal was damaged: 23 of 24 entries saved; the damaged file is kept at …" */
  message: z.string(),
});
export type JournalRecoveryNotice = z.infer<typeof JournalRecoveryNotice>;

export const PaperUnavailable = z.object({
  /** The paper ledger that could not be opened. */
  file: z.string(),
  /** Why, in words (damaged, read-only, disk full…). */
  reason: z.string(),
  message: z.string(),
});
export type PaperUnavailable = z.infer<typeof PaperUnavailable>;

export const StorageStatus = z.object({
  journal: JournalRecoveryNotice.optional(),
  paper: PaperUnavailable.optional(),
});
export type StorageStatus = z.infer<typeof StorageStatus>;

/** `profiles.resetPaper`: where the damaged ledger was kept. */
export const PaperResetResult = z.object({ backupPath: z.string() });
export type PaperResetResult = z.infer<typeof PaperResetResult>;
