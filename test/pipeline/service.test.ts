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
    ['ftp://example.com/api/v1', 'must be an http or https URL ending in /api/v1'],
    ['https://example.com/api/v2', 'must end in /api/v1'],
    ['https://example.com/', 'must end in /api/v1'],
    ['https://user:sk-123@example.com/api/v1', 'must be a plain base URL without credentials, query or fragment: the API key comes from RESQ_API_KEY'],
    ['https://example.com/api/v1?key=sk-123', 'must be a plain base URL without credentials, query or fragment: the API key comes from RESQ_API_KEY'],
  ])('refuses %s', (value, reason) => {
    expect(parseService(value)).toEqual({ reason });
  });
});
