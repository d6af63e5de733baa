/**
 * What a REST client will take from a server: at most {@link MAX_RESPONSE_BYTES} of body, and the whole body
 * within a deadline. undici's own timeouts are idle timeouts (no byte for `timeoutMs`), so a server that sends a
 * byte every few seconds, or an endless body, held a request open forever or grew the process by hundreds of MB a
 * second (found by an attack pass with a hostile server: a bot stuck on its first GET /markets, or 3 GB in 8 s).
 */
import type { Dispatcher } from 'undici';

/** The largest response body read (64 MiB: the largest real answers, books and market lists, are under 1 MB). */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** How the cut is told apart from other transport errors (see `transportError`). */
export const BODY_DEADLINE_CODE = 'REXBOT_BODY_DEADLINE';

/**
 * The text of a response body, all of it within `deadlineMs` of now: a body still arriving then is destroyed
 * with an error whose `code` is {@link BODY_DEADLINE_CODE}. One timer per request, cleared as the body ends.
 */
export async function bodyTextWithin(body: Dispatcher.ResponseData['body'], deadlineMs: number): Promise<string> {
  const timer = setTimeout(() => {
    body.destroy(Object.assign(new Error(`the response body did not arrive whole within ${deadlineMs} ms`), { code: BODY_DEADLINE_CODE }));
  }, deadlineMs);
  try {
    return await body.text();
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The text of a body of at most `maxBytes` (a small answer: a hub's negotiate or start), read chunk by chunk; a
 * longer one is destroyed and refused with an error naming `what`.
 */
export async function smallBodyText(body: AsyncIterable<Buffer> & { destroy(err?: Error): unknown }, maxBytes: number, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of body) {
    n += chunk.length;
    if (n > maxBytes) {
      const err = new Error(`${what} answered more than ${maxBytes} bytes; not read further`);
      body.destroy(err);
      throw err;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
