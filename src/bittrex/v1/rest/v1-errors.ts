/** The typed error of a v1.1 call the service answered with `success: false`. */
import { RexbotError, type RequestRef } from '../../../core/errors.js';
import { isThrottledMessage, type V1MessageCode } from '../../../wire/v1/message-codes.js';

/**
 * The v1.1 service said no: HTTP 200 with `{"success":false,"message":"<CODE>"}`. `code` is the message code
 * (`ADDRESS_GENERATING`, `INSUFFICIENT_FUNDS`, …), `THROTTLED` for the service's "Call to X was throttled"
 * sentence, and `serviceMessage` the message exactly as it came.
 */
export class V1ApiError extends RexbotError {
  override readonly code: V1MessageCode | (string & {});
  readonly serviceMessage: string;
  readonly request: RequestRef;

  constructor(serviceMessage: string, request: RequestRef) {
    const code = isThrottledMessage(serviceMessage) ? 'THROTTLED' : serviceMessage || 'APICALL_FAILED';
    super(code, `${code}${code !== serviceMessage ? `: ${serviceMessage}` : ''} (${request.method} ${request.path})`);
    this.code = code;
    this.serviceMessage = serviceMessage;
    this.request = request;
  }
}
