import { describe, expect, it } from 'vitest';
import { pushEndpointProblem } from './endpoint';

describe('which push endpoints the server sends to', () => {
  it('takes https push services everywhere', () => {
    for (const production of [false, true]) {
      expect(pushEndpointProblem('https://fcm.googleapis.com/fcm/send/abc', { production })).toBeNull();
      expect(pushEndpointProblem('https://web.push.apple.com/QGx', { production })).toBeNull();
    }
  });

  it('takes plain http only to loopback, and only off production', () => {
    expect(pushEndpointProblem('http://127.0.0.1:4000/push/1', { production: false })).toBeNull();
    expect(pushEndpointProblem('http://localhost:4000/push/1', { production: false })).toBeNull();
    expect(pushEndpointProblem('http://127.0.0.1:4000/push/1', { production: true })).toBe('not https');
    expect(pushEndpointProblem('http://push.example.com/x', { production: false })).toBe('not https');
    expect(pushEndpointProblem('http://192.168.1.1/x', { production: false })).toBe('not https');
  });

  it('never internal hosts in production, nor credentials, other schemes or non-URLs', () => {
    for (const endpoint of [
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://169.254.169.254/x',
      'https://[::1]/x',
    ]) {
      expect(pushEndpointProblem(endpoint, { production: true }), endpoint).toBe('not a public host');
    }
    expect(pushEndpointProblem('https://user:pw@push.example.com/x', { production: false })).toBe(
      'credentials in the URL',
    );
    expect(pushEndpointProblem('file:///etc/passwd', { production: false })).toBe('not https');
    expect(pushEndpointProblem('push.example.com', { production: false })).toBe('not a URL');
  });
});
