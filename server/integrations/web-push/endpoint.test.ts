import { describe, expect, it } from 'vitest';
import { parsePushHosts, pushEndpointProblem } from './endpoint';

describe('which push endpoints the server sends to', () => {
  it('takes the browsers’ push services over https everywhere', () => {
    for (const production of [false, true]) {
      for (const endpoint of [
        'https://fcm.googleapis.com/fcm/send/abc',
        'https://updates.push.services.mozilla.com/wpush/v2/gAAA',
        'https://web.push.apple.com/QGx',
        'https://api.push.apple.com/3/device/x',
        'https://wns2-par02p.notify.windows.com/w/?token=x',
      ]) {
        expect(pushEndpointProblem(endpoint, { production }), endpoint).toBeNull();
      }
    }
  });

  it('refuses every other host, also names that resolve to this machine or the cloud metadata service', () => {
    for (const production of [false, true]) {
      for (const endpoint of [
        'https://localhost.:9/push',
        'https://localhost/push',
        'https://metadata.google.internal/computeMetadata/v1/',
        'https://push.example.com/x',
        'https://127.0.0.1/x',
        'https://10.1.2.3/x',
        'https://169.254.169.254/x',
        'https://[::1]/x',
        // Look-alikes of the known hosts.
        'https://fcm.googleapis.com./fcm/send/abc',
        'https://fcm.googleapis.com.evil.example/x',
        'https://evilfcm.googleapis.com/x',
        'https://push.apple.com.evil.example/x',
        'https://evil-push.apple.com/x',
      ]) {
        expect(pushEndpointProblem(endpoint, { production }), endpoint).toBe('not a known push service');
      }
      expect(pushEndpointProblem('https://fcm.googleapis.com:8443/x', { production })).toBe('not the https port');
    }
  });

  it('takes plain http only to a loopback literal, and only off production', () => {
    expect(pushEndpointProblem('http://127.0.0.1:4000/push/1', { production: false })).toBeNull();
    expect(pushEndpointProblem('http://localhost:4000/push/1', { production: false })).toBeNull();
    expect(pushEndpointProblem('http://127.0.0.1:4000/push/1', { production: true })).toBe('not https');
    expect(pushEndpointProblem('http://localhost.:4000/push/1', { production: false })).toBe('not https');
    expect(pushEndpointProblem('http://fcm.googleapis.com/x', { production: false })).toBe('not https');
    expect(pushEndpointProblem('http://192.168.1.1/x', { production: false })).toBe('not https');
  });

  it('never credentials, other schemes or non-URLs', () => {
    expect(pushEndpointProblem('https://user:pw@fcm.googleapis.com/x', { production: false })).toBe(
      'credentials in the URL',
    );
    expect(pushEndpointProblem('file:///etc/passwd', { production: false })).toBe('not https');
    expect(pushEndpointProblem('fcm.googleapis.com', { production: false })).toBe('not a URL');
  });

  it('takes the hosts of WEB_PUSH_HOSTS besides the known ones', () => {
    const { hosts, problem } = parsePushHosts(' push.example.com, *.push.example.net ,');
    expect(problem).toBeNull();
    expect(hosts).toEqual(['push.example.com', '*.push.example.net']);
    const policy = { production: true, extraHosts: hosts };
    expect(pushEndpointProblem('https://push.example.com/x', policy)).toBeNull();
    expect(pushEndpointProblem('https://a.push.example.net/x', policy)).toBeNull();
    expect(pushEndpointProblem('https://push.example.net/x', policy)).toBe('not a known push service');
    expect(pushEndpointProblem('https://fcm.googleapis.com/x', policy)).toBeNull();
    for (const bad of ['*', '*.com.', '127.0.0.1', 'https://push.example.com', 'a b.example']) {
      expect(parsePushHosts(bad).problem, bad).not.toBeNull();
    }
  });
});
