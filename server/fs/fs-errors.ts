import { AppError } from '../core/errors';

/** Translates an OS error into an AppError once, here, so services never see errno codes. */
export function fromFsError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  const code = (e as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new AppError('NOT_FOUND', undefined, { cause: e });
    case 'EEXIST':
    case 'ENOTEMPTY':
      return new AppError('EXISTS', undefined, { cause: e });
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
    case 'ELOOP':
      return new AppError('FORBIDDEN', undefined, { cause: e });
    case 'ENAMETOOLONG':
      return new AppError('INVALID', 'name too long', { cause: e });
    case 'EINVAL':
      return new AppError('INVALID', 'invalid operation for this path', { cause: e });
    case 'EISDIR':
      return new AppError('EXISTS', 'a folder has that name', { cause: e });
    case 'ENOSPC':
      return new AppError('NO_SPACE', 'no space left on the files volume', { cause: e });
    case 'EDQUOT':
      return new AppError('NO_SPACE', 'the disk quota of the files volume is exhausted', { cause: e });
    case 'EFBIG':
      return new AppError('TOO_LARGE', 'the file is too large for the files volume', { cause: e });
    default:
      return new AppError('INTERNAL', undefined, { cause: e });
  }
}

export async function wrapFs<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw fromFsError(e);
  }
}
