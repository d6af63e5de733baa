/**
 * The engine's failures. Every refusal carries the HTTP status and the service's error code the original service
 * answered with, so the REST server maps it 1:1 and the in-process gateway (backtests) raises the same codes.
 */
import type { ErrorCode } from '../model/error-codes.js';

/** A refusal by the simulated exchange. The engine's state is unchanged when one is thrown. */
export class SimError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  readonly data: Record<string, unknown> | undefined;

  constructor(status: number, code: ErrorCode, detail?: string, data?: Record<string, unknown>) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'SimError';
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.data = data;
  }

  /** The Error body the wire carries: `{code, detail?, data?}`. */
  toBody(): { code: string; detail?: string; data?: Record<string, unknown> } {
    const body: { code: string; detail?: string; data?: Record<string, unknown> } = { code: this.code };
    if (this.detail !== undefined) body.detail = this.detail;
    if (this.data !== undefined) body.data = this.data;
    return body;
  }
}

/** 400 with a code. */
export const badRequest = (code: ErrorCode, detail?: string, data?: Record<string, unknown>): SimError =>
  new SimError(400, code, detail, data);
/** 404 with a code. */
export const notFound = (code: ErrorCode, detail?: string): SimError => new SimError(404, code, detail);
/** 409 with a code (a valid request that failed for an operational reason). */
export const conflict = (code: ErrorCode, detail?: string, data?: Record<string, unknown>): SimError =>
  new SimError(409, code, detail, data);
/** 403 with a code. */
export const forbidden = (code: ErrorCode, detail?: string): SimError => new SimError(403, code, detail);
/** 503 with a code. */
export const unavailable = (code: ErrorCode, detail?: string): SimError => new SimError(503, code, detail);
