import { describe, expect, it } from 'vitest';
import { parseService } from '../../src/pipeline/service.js';

describe('parseService', () => {
  it('reads sim', () => {
    expect(parseService('sim')).toEqual({ kind: 'sim' });
  });

  it.each([
    ['https://agent.example.com/api/v1', 'https://agent.example.com/api/v1'],
    ['https://agent.example.com/api/v1/', 'https://agent.example.com/api/v1'],
    ['http://127.0.0.1:8080/prefix/api/v1', 'http://127.0.0.1:8080/prefix/api/v1'],
    ['HTTPS://Agent.Example.com:443/api/v1', 'https://agent.example.com/api/v1'],
  ])('reads the base URL %s', (value, baseUrl) => {
    expect(parseService(value)).toEqual({ kind: 'url', baseUrl });
  });

  it.each([
    ['simulator', 'must be "sim" or a base URL ending in /api/v1'],
    ['ftp://example.com/api/v1', 'the base URL must use http or https, not ftp'],
    ['https://example.com/api/v2', 'the base URL must end in /api/v1 (its path is "/api/v2")'],
    ['https://example.com/', 'the base URL must end in /api/v1 (its path is "/")'],
    ['https://user:sk-123@example.com/api/v1', 'the base URL must not contain a user name or password: the API key comes from RESQ_API_KEY'],
    ['https://example.com/api/v1?key=sk-123', 'the base URL must not have a query string or fragment'],
  ])('refuses %s', (value, reason) => {
    expect(parseService(value)).toEqual({ reason });
  });
});
