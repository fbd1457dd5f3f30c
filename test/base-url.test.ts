import { describe, expect, it } from 'vitest';
import { checkBaseUrl } from '../src/base-url.js';

describe('checkBaseUrl', () => {
  it.each([
    ['https://agent.example.com/api/v1', 'https://agent.example.com/api/v1'],
    ['https://agent.example.com/api/v1/', 'https://agent.example.com/api/v1'],
    ['  http://127.0.0.1:8080/prefix/api/v1 ', 'http://127.0.0.1:8080/prefix/api/v1'],
    ['HTTPS://Agent.Example.com:443/api/v1', 'https://agent.example.com/api/v1'],
  ])('takes %j as %s', (raw, baseUrl) => {
    expect(checkBaseUrl(raw)).toEqual({ ok: true, baseUrl });
  });

  it.each([
    [undefined, 'is missing'],
    ['', 'is missing'],
    ['not a url', 'is not a valid URL'],
    ['ftp://h/api/v1', 'must use http or https, not ftp'],
    ['https://h/api/v2', 'must end in /api/v1 (its path is "/api/v2")'],
    ['https://h/', 'must end in /api/v1 (its path is "/")'],
    ['https://h/api/v1?token=abc', 'must not have a query string or fragment'],
    ['https://h/api/v1#x', 'must not have a query string or fragment'],
    ['https://user:hunter2@h/api/v1', 'must not contain a user name or password: the API key comes from RESQ_API_KEY'],
  ])('refuses %j: %s', (raw, reason) => {
    expect(checkBaseUrl(raw)).toEqual({ ok: false, reason });
  });

  it('never echoes what it refuses', () => {
    for (const raw of ['https://user:sk-secret@h/api/v1', 'https://h/api/v1?key=sk-secret', 'sk-secret'])
      expect(JSON.stringify(checkBaseUrl(raw))).not.toContain('sk-secret');
  });
});
