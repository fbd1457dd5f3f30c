import { describe, expect, it } from 'vitest';
import { allowedHosts, machineNames, ownHosts } from '../../src/web/hosts.js';

describe('the Host names the server answers', () => {
  it('on loopback: the bound host and port and the loopback names; extra names with any port or their own', () => {
    const a = allowedHosts('127.0.0.1', 8642, ['resq.example.org', 'other.example:443'], ['box', '192.0.2.7']);
    expect(['127.0.0.1:8642', 'localhost:8642', '[::1]:8642', 'resq.example.org', 'RESQ.example.org:8443', 'other.example:443'].every((h) => a(h))).toBe(true);
    expect(['127.0.0.1:8643', 'evil.example', 'other.example:80', 'box:8642', '192.0.2.7:8642', '', undefined].some((h) => a(h))).toBe(false);
  });

  it('beyond loopback (0.0.0.0, ::, a LAN address): also the machine\'s host name and interface addresses', () => {
    const machine = ['box', '192.0.2.7', '[fd00::2]'];
    expect(ownHosts('0.0.0.0', 80, machine)).toEqual(['0.0.0.0:80', '127.0.0.1:80', 'localhost:80', '[::1]:80', 'box:80', '192.0.2.7:80', '[fd00::2]:80']);
    const wide = allowedHosts('::', 80, [], machine);
    expect(['[::]:80', 'box:80', '192.0.2.7:80', '[fd00::2]:80', 'localhost:80'].every((h) => wide(h))).toBe(true);
    expect(wide('evil.example:80')).toBe(false);
    expect(ownHosts('192.0.2.7', 80, machine)).toEqual(['192.0.2.7:80', 'box:80', '[fd00::2]:80']);
  });

  it("the machine's names: its host name and non-loopback addresses, IPv6 in brackets without a scope", () => {
    const names = machineNames();
    expect(names.length).toBeGreaterThan(0);
    expect(names.some((n) => n.startsWith('127.') || n === '[::1]')).toBe(false);
    expect(names.every((n) => !n.includes('%'))).toBe(true);
  });
});
