import { ResqError } from '../errors.js';

/** Something a notebook asked for is not there (no database, no batch, no item). */
export class NotebookError extends ResqError {
  override readonly code: string = 'RESQ_NOTEBOOK';
}
