import { describe, expect, it } from 'vitest';
import { hubHttpUrl } from '../../../src/bittrex/hub/transport.js';

describe('hubHttpUrl', () => {
  it('turns ws(s) hub URLs into the http(s) URL negotiate goes to, and leaves http(s) ones alone', () => {
    expect(hubHttpUrl('ws://127.0.0.1:8080/signalr').href).toBe('http://127.0.0.1:8080/signalr');
    expect(hubHttpUrl('wss://socket-v3.example/signalr').href).toBe('https://socket-v3.example/signalr');
    expect(hubHttpUrl('http://127.0.0.1:8080/hub').href).toBe('http://127.0.0.1:8080/hub');
    expect(hubHttpUrl('https://socket-v3.example/hub/').href).toBe('https://socket-v3.example/hub/');
  });
});
