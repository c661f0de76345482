// Why a file of OrderDesk's own (the journal, the paper ledger) could not be written or read, in the
// trader's words, from SQLite's result code or the file system's error code. Undefined for any
// other failure (a bug, not the disk), which stays `internal`.

/** The cause in words: "the disk is full", "the file is read-only", "the file is damaged"… */
export function storageCause(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'the disk is full';
  if (code.startsWith('SQLITE_READONLY') || code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return 'the file is read-only';
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'the file is damaged';
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') return 'the disk could not be read or written';
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'ENOENT') return 'the file could not be opened';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return 'the file is locked by another program';
  return undefined;
}
