/** Database errors as API errors, without SQL text (knex puts the statement in the message). */
import { KernelError } from '../../kernel';

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * Unique violations → E_CONFLICT `DB Error: already exists` (the key's columns in `details.field`); other constraint failures →
 * `DB Error: constraint violation`; invalid values → E_INVALID_PARAMS; a statement timeout (57014) or
 * a program limit (54xxx) → E_LIMIT_EXCEEDED; anything else from the database → E_DATABASE. Undefined
 * when the error did not come from the database.
 */
export function dbError(err: unknown): KernelError | undefined {
  const found = sqlStateOf(err);
  return found && fromSqlState(found.code, found.error);
}

/** The SQLSTATE of the database's error in `err` or its causes (e.g. '55P03', a lock timeout), if any. */
export function sqlState(err: unknown): string | undefined {
  return sqlStateOf(err)?.code;
}

/** The database's error in `err` or its causes (knex and our wrappers nest it), with its SQLSTATE. */
function sqlStateOf(err: unknown): { code: string; error: unknown } | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && SQLSTATE.test(code)) return { code, error: current };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function fromSqlState(code: string, cause: unknown): KernelError {
  // query_canceled: the statement ran past `limits.statementTimeoutMs`.
  if (code === '57014')
    return new KernelError('E_LIMIT_EXCEEDED', 'The query took too long and was stopped (limits.statementTimeoutMs)', {
      details: { error_code: 'limit exceeded', limit: 'statementTimeoutMs' },
      cause,
    });
  // program_limit_exceeded (e.g. too many bound values in one statement).
  if (code.startsWith('54'))
    return new KernelError('E_LIMIT_EXCEEDED', 'The query is too large for the database', {
      details: { error_code: 'limit exceeded' },
      cause,
    });
  const column = (cause as { column?: string }).column;
  const constraint = (cause as { constraint?: string }).constraint;
  if (code === '23505') {
    // The reference's message, kept for its clients; the key's columns (never its value: it may be a secret, and
    // errors are logged) in `details.field`, as for the other constraint violations.
    const key = /^Key \(([^)]+)\)=/.exec(String((cause as { detail?: unknown }).detail ?? ''))?.[1];
    return new KernelError('E_CONFLICT', 'DB Error: already exists', {
      details: { error_code: 'already exists', ...(key ? { field: key } : {}) },
      cause,
    });
  }
  if (code.startsWith('23')) {
    const field = column ?? constraint;
    return new KernelError(
      'E_CONFLICT',
      code === '23502' && column
        ? `DB Constraint Violation - ${column} should possibly be marked as mandatory`
        : 'DB Error: constraint violation',
      { details: { error_code: 'constraint violation', ...(field ? { field } : {}) }, cause },
    );
  }
  if (code.startsWith('22'))
    return new KernelError('E_INVALID_PARAMS', 'DB Error: invalid value', {
      details: { error_code: 'invalid value' },
      cause,
    });
  return new KernelError('E_DATABASE', 'DB Error: unknown error', { details: { error_code: 'database' }, cause });
}

/** Runs a database call, rewording its errors. */
export async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw dbError(err) ?? err;
  }
}
