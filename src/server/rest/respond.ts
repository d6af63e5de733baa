/** Writing responses the way the service did: JSON, decimals as 8-dp strings, dates ISO 8601, error bodies. */
import type { ServerResponse } from 'node:http';
import { toWireJson, toWireJsonBytes } from '../../model/encode.js';
import { SimError } from '../../sim/sim-error.js';

/** Send a JSON body (model values are serialized with decimals as 8-dp strings). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // The answer's bytes, not its text: written once into a buffer the socket sends as it is (no second encoding).
  const bytes = body === undefined ? undefined : toWireJsonBytes(body, 'fixed8');
  if (bytes === undefined) {
    // No body, or one JSON cannot write (undefined): as before, the text path decides what happens.
    const text = body === undefined ? '' : toWireJson(body, 'fixed8');
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...headers });
    res.end(text);
    return;
  }
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': bytes.length,
    ...headers,
  });
  res.end(bytes);
}

/** Send an error body `{code, detail?, data?}` with its status. */
export function sendError(res: ServerResponse, status: number, code: string, detail?: string, data?: Record<string, unknown>, headers: Record<string, string> = {}): void {
  const body: Record<string, unknown> = { code };
  if (detail !== undefined) body.detail = detail;
  if (data !== undefined) body.data = data;
  sendJson(res, status, body, headers);
}

/** Send a {@link SimError}. */
export function sendSimError(res: ServerResponse, err: SimError): void {
  sendError(res, err.status, err.code, err.detail, err.data);
}
