// What a caught value says, as one line of text. JavaScript can throw anything (null, a string, a
// plain object, an object without a prototype whose String() itself throws), so every catch path
// that reports a failure goes through here instead of `(err as Error).message` or `String(err)`.

const MAX_LENGTH = 300;

function bounded(text: string): string {
  const line = text.split('\n')[0]?.trim() ?? '';
  return line.length > MAX_LENGTH ? `${line.slice(0, MAX_LENGTH)}…` : line;
}

function describe(err: unknown): string {
  if (err === null || err === undefined) return `no error detail (${String(err)} was thrown)`;
  if (typeof err === 'string') return err;
  if (typeof err === 'object' || typeof err === 'function') {
    const message: unknown = (err as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim() !== '') return message;
    const name: unknown = (err as { name?: unknown }).name;
    if (err instanceof Error) return typeof name === 'string' && name !== '' ? name : 'Error';
    const json = JSON.stringify(err);
    if (typeof json === 'string' && json !== '{}') return json;
    return Object.prototype.toString.call(err);
  }
  // number, boolean, bigint, symbol: String() handles each (a template literal throws on a symbol).
  return String(err);
}

/** A non-empty, single-line, bounded description of any thrown value; never throws. */
export function errorMessage(err: unknown): string {
  let text: string;
  try {
    text = describe(err);
  } catch {
    // A getter or toJSON that throws, a circular object: say what kind of value it was.
    text = `unreadable ${typeof err} was thrown`;
  }
  return bounded(text) || 'unknown error';
}

/** A Node system error's `code` (ENOENT, EACCES…), when the thrown value carries one as a string. */
export function errorCode(err: unknown): string | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  try {
    const code: unknown = (err as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}
