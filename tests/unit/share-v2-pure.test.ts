import { describe, expect, test } from 'bun:test';
import { agentFamily, anonymiseAddress, loggedAddress } from '../../server/services/shares/share-access-log';
import { normaliseSlug, RESERVED_SLUGS } from '../../server/services/shares/share-slugs';
import { checkChange, webhookUrlOf } from '../../server/services/shares/share-settings';
import { numberedName, typeAccepted } from '../../server/services/shares/share-uploads';
import { isPrivateAddress, refusedTarget } from '../../server/services/shares/webhook-target';
import { signBody } from '../../server/services/shares/share-webhooks';

/** The pure parts of shares v2 (decision 0051): what the log keeps, slug rules, change checks, names, SSRF refusal. */
describe('access log reduction', () => {
  test.each([
    ['203.0.113.77', '203.0.113.0'],
    ['::ffff:198.51.100.9', '198.51.100.0'],
    ['2001:db8:aaaa:bbbb::1', '2001:db8:aaaa::'],
    ['2001:0db8:0000:0001:0:0:0:1', '2001:db8:0::'],
    ['::1', '0:0:0::'],
    ['[2001:db8::5]', '2001:db8:0::'],
    ['999.1.1.1', ''],
    ['not an address', ''],
    ['1:2:3:4:5:6:7:8:9', ''],
  ])('%s -> %s', (a, want) => expect(anonymiseAddress(a)).toBe(want));

  test('whole addresses only when asked, and only when they look like one', () => {
    expect(loggedAddress('203.0.113.77', true)).toBe('203.0.113.77');
    expect(loggedAddress('<script>', true)).toBe('');
    expect(loggedAddress('203.0.113.77', false)).toBe('203.0.113.0');
  });

  test.each([
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36', 'Chrome'],
    ['Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0', 'Edge'],
    ['Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'Safari'],
    ['curl/8.5.0', 'curl'],
    ['rclone/v1.66', 'rclone'],
    ['Googlebot/2.1 (+http://www.google.com/bot.html)', 'Bot'],
    ['', 'Other'],
    ['something else entirely', 'Other'],
  ])('%s -> %s', (ua, want) => expect(agentFamily(ua)).toBe(want));
});

describe('slugs', () => {
  test('accepted, folded to lower case', () => {
    expect(normaliseSlug('Team-Drop-2026')).toBe('team-drop-2026');
    expect(normaliseSlug('abc')).toBe('abc');
    expect(normaliseSlug('a'.repeat(64))).toBe('a'.repeat(64));
  });
  test.each(['ab', 'a'.repeat(65), '-abc', 'abc-', 'a_b', 'a b', 'a/b', 'é-abc', '', 'a..b'])('refused: %j', (s) => expect(() => normaliseSlug(s)).toThrow());
  test('reserved words are refused in any case', () => {
    for (const w of ['api', 'static', 'login', 'share', 'settings', 'files', 'dav', 'health', 'metrics']) {
      expect(RESERVED_SLUGS.has(w)).toBe(true);
      expect(() => normaliseSlug(w.toUpperCase())).toThrow('reserved');
    }
  });
  test('not text', () => expect(() => normaliseSlug(12345)).toThrow('text'));
});

describe('changes', () => {
  test('fields are checked one by one', () => {
    const c = checkChange({ mode: 'upload', upload: { maxFileSize: '100', allowedTypes: ['.PDF', 'image/*', '.pdf'] }, slug: null }, 1000);
    expect(c).toMatchObject({ slugGiven: true, settings: { mode: 'upload', slug: '', maxFileSize: 100, allowedTypes: ['.pdf', 'image/*'] } });
    expect(checkChange({ expires: 2, unit: 'minutes' }, 1000).expire).toBe(1120);
    expect(checkChange({ expires: 0 }, 1000).expire).toBe(0);
  });
  test.each([
    [{ unit: 'days' }, 'unit needs expires'],
    [{ mode: 'all' }, 'mode'],
    [{ disabled: 'yes' }, 'disabled'],
    [{ maxDownloads: 1.5 }, 'maxDownloads'],
    [{ upload: { maxFiles: -1 } }, 'maxFiles'],
    [{ upload: { allowedTypes: 'pdf' } }, 'allowedTypes'],
    [{ upload: { allowedTypes: Array(51).fill('.a') } }, 'at most 50'],
    [{ upload: { colour: 1 } }, 'unknown field'],
    [{ password: 5 }, 'password'],
    [{ password: 'x'.repeat(257) }, 'too long'],
    [{ webhookUrl: 'javascript:alert(1)' }, 'http'],
    [{ nope: 1 }, 'unknown field'],
    ['text', 'JSON object'],
  ])('%j is refused (%s)', (body, msg) => expect(() => checkChange(body, 0)).toThrow(msg));
  test('webhook URLs', () => {
    expect(webhookUrlOf(' https://example.com/hook?a=1 ')).toBe('https://example.com/hook?a=1');
    expect(webhookUrlOf('')).toBe('');
    expect(() => webhookUrlOf('https://user:pw@example.com/')).toThrow('credentials');
    expect(() => webhookUrlOf(`https://example.com/${'a'.repeat(2048)}`)).toThrow('too long');
  });
});

describe('file request names and types', () => {
  test.each([
    ['report.pdf', 1, 'report (1).pdf'],
    ['notes', 2, 'notes (2)'],
    ['.env', 1, '.env (1)'],
    ['a.tar.gz', 3, 'a.tar (3).gz'],
  ])('%s #%d -> %s', (name, n, want) => expect(numberedName(name, n)).toBe(want));
  test('a numbered name stays within 255 bytes, never splitting a character', () => {
    const long = `${'é'.repeat(126)}.txt`;
    const out = numberedName(long, 12);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(255);
    expect(out.endsWith(' (12).txt')).toBe(true);
    expect(out).not.toContain('\uFFFD');
  });
  test('types: extensions and MIME patterns, case-folded; none = any', () => {
    expect(typeAccepted('X.PDF', ['.pdf'])).toBe(true);
    expect(typeAccepted('photo.JPG', ['image/*'])).toBe(true);
    expect(typeAccepted('doc.pdf', ['application/pdf'])).toBe(true);
    expect(typeAccepted('run.exe', ['.pdf', 'image/*'])).toBe(false);
    expect(typeAccepted('pdf', ['.pdf'])).toBe(false);
    expect(typeAccepted('anything', [])).toBe(true);
  });
});

describe('webhook destinations (SSRF)', () => {
  test.each([
    ['127.0.0.1', true], ['10.1.2.3', true], ['172.16.0.1', true], ['172.31.255.255', true], ['172.32.0.1', false], ['192.168.1.1', true],
    ['169.254.169.254', true], ['100.64.0.1', true], ['0.0.0.0', true], ['224.0.0.1', true], ['255.255.255.255', true],
    ['::1', true], ['::', true], ['fe80::1', true], ['fd00::1', true], ['::ffff:127.0.0.1', true], ['::ffff:8.8.8.8', false],
    ['8.8.8.8', false], ['2606:4700::1111', false], ['example', true],
  ])('%s private: %s', (a, want) => expect(isPrivateAddress(a)).toBe(want));

  test('refused unless allowed; names resolving to loopback are refused too', async () => {
    expect(await refusedTarget('http://127.0.0.1:9/x', false)).toContain('private');
    expect(await refusedTarget('http://[::1]:9/x', false)).toContain('private');
    expect(await refusedTarget('http://localhost:9/x', false)).toContain('private');
    expect(await refusedTarget('http://127.0.0.1:9/x', true)).toBeNull();
    expect(await refusedTarget('ftp://example.com/', true)).toBe('not http(s)');
  });

  test('the signature is HMAC-SHA256 of the exact body', () => {
    expect(signBody('key', 'The quick brown fox jumps over the lazy dog')).toBe('sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8');
  });
});
