/** The pure token logic: record building, expiry, scopes, owner name, refresh merge and refresh decision. */
import { expect } from 'chai';
import fc from 'fast-check';
import {
  buildTokenRecord,
  computeExpires,
  mergeRefreshed,
  needsRefresh,
  ownerName,
  redactRaw,
  splitScopes,
} from '../../../plugins/oauth-client/token-record';

const NOW = 1_800_000_000;

describe('oauth-client token records (pure)', () => {
  describe('computeExpires', () => {
    it('turns expires_in into absolute unix seconds, 0 staying 0', () => {
      expect(computeExpires({ expires_in: 3600 }, NOW)).to.equal(NOW + 3600);
      expect(computeExpires({ expires_in: '120' as never }, NOW)).to.equal(NOW + 120);
      expect(computeExpires({ expires_in: 0 }, NOW)).to.equal(0);
    });

    it('takes a large expires as absolute and a small one as relative; nothing gives null', () => {
      expect(computeExpires({ expires: 1_900_000_000 }, NOW)).to.equal(1_900_000_000);
      expect(computeExpires({ expires: 600 }, NOW)).to.equal(NOW + 600);
      expect(computeExpires({}, NOW)).to.equal(null);
      expect(computeExpires({ expires_in: 'soon' as never }, NOW)).to.equal(null);
    });

    it('prefers expires_in over expires', () => {
      expect(computeExpires({ expires_in: 10, expires: 1_900_000_000 }, NOW)).to.equal(NOW + 10);
    });
  });

  describe('scopes and owner name', () => {
    it('splits by the provider separator and tolerates a space-separated answer', () => {
      expect(splitScopes('a b  c', ' ')).to.deep.equal(['a', 'b', 'c']);
      expect(splitScopes('a,b', ',')).to.deep.equal(['a', 'b']);
      expect(splitScopes('a b', ',')).to.deep.equal(['a', 'b']);
      expect(splitScopes('x+y', '+')).to.deep.equal(['x', 'y']);
    });

    it('names the owner by upn, userPrincipalName, mail, email, id, then the id field', () => {
      expect(ownerName({ upn: 'u@x', email: 'e@x' })).to.equal('u@x');
      expect(ownerName({ userPrincipalName: 'p@x', mail: 'm@x' })).to.equal('p@x');
      expect(ownerName({ mail: 'm@x', email: 'e@x' })).to.equal('m@x');
      expect(ownerName({ email: 'e@x', id: 5 })).to.equal('e@x');
      expect(ownerName({ id: 5 })).to.equal('5');
      expect(ownerName({ sub: 'abc' }, 'sub')).to.equal('abc');
      expect(ownerName({ sub: 'abc' })).to.equal(null);
      expect(ownerName(null)).to.equal(null);
    });
  });

  describe('buildTokenRecord', () => {
    const response = {
      access_token: 'AT-secret',
      refresh_token: 'RT-secret',
      id_token: 'ID.TOKEN.x',
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'foo',
      custom: 1,
    };

    it('computes every field a token record needs', () => {
      const record = buildTokenRecord({
        response,
        grantType: 'authorization_code',
        requestedScopes: ['foo', 'bar'],
        scopeSeparator: ' ',
        clientId: 3,
        tag: 'MailSettings:1',
        owner: { owner: { email: 'test@baz.biff' }, name: 'test@baz.biff' },
        now: NOW,
      });
      expect(record).to.deep.equal({
        client_id: 3,
        grant_type: 'authorization_code',
        tag: 'MailSettings:1',
        scopes: ['foo'],
        token_type: 'Bearer',
        access_token: 'AT-secret',
        refresh_token: 'RT-secret',
        expires: NOW + 3600,
        resource_owner_name: 'test@baz.biff',
        resource_owner: { email: 'test@baz.biff' },
        raw: { token_type: 'Bearer', expires_in: 3600, scope: 'foo', custom: 1 },
      });
    });

    it('falls back to the requested scopes and to nulls', () => {
      const record = buildTokenRecord({
        response: { access_token: 'a', token_type: 'bearer' },
        grantType: 'password',
        requestedScopes: ['x', 'y'],
        scopeSeparator: ',',
        now: NOW,
      });
      expect(record).to.include({
        client_id: null,
        tag: null,
        refresh_token: null,
        expires: null,
        resource_owner: null,
        resource_owner_name: null,
        token_type: 'bearer',
      });
      expect(record.scopes).to.deep.equal(['x', 'y']);
    });

    it('never puts a secret into raw', () => {
      fc.assert(
        fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (extra) => {
          const raw = redactRaw({ ...extra, access_token: 'a', refresh_token: 'r', id_token: 'i' });
          return !('access_token' in raw) && !('refresh_token' in raw) && !('id_token' in raw);
        }),
      );
    });
  });

  describe('mergeRefreshed', () => {
    const stored = {
      id: 4,
      access_token: 'old-at',
      refresh_token: 'old-rt',
      token_type: 'Bearer',
      expires: NOW - 10,
      scopes: ['a'],
      resource_owner_name: 'me',
      raw: { old: true },
      error: { error: 'invalid_grant' },
    };

    it('copies the new tokens and expiry, replaces raw, clears the error, keeps scopes and owner', () => {
      const next = mergeRefreshed(
        stored,
        { access_token: 'new-at', refresh_token: 'new-rt', token_type: 'Bearer', expires_in: 60, scope: 'b' },
        NOW,
      );
      expect(next).to.deep.equal({
        id: 4,
        access_token: 'new-at',
        refresh_token: 'new-rt',
        token_type: 'Bearer',
        expires: NOW + 60,
        scopes: ['a'],
        resource_owner_name: 'me',
        raw: { token_type: 'Bearer', expires_in: 60, scope: 'b' },
        error: null,
      });
    });

    it('keeps the old refresh token when the provider does not rotate it', () => {
      const next = mergeRefreshed(stored, { access_token: 'new-at', token_type: 'Bearer' }, NOW);
      expect(next).to.include({ refresh_token: 'old-rt', access_token: 'new-at', expires: NOW - 10 });
    });
  });

  describe('needsRefresh', () => {
    it('uses a 60-second default window', () => {
      expect(needsRefresh({ expires: NOW + 61 }, { now: NOW })).to.equal(false);
      expect(needsRefresh({ expires: NOW + 60 }, { now: NOW })).to.equal(true);
      expect(needsRefresh({ expires: NOW - 5 }, { now: NOW })).to.equal(true);
    });

    it('honours a threshold, forces with -1, and always refreshes a token without expiry', () => {
      expect(needsRefresh({ expires: NOW + 500 }, { now: NOW, threshold: 600 })).to.equal(true);
      expect(needsRefresh({ expires: NOW + 500 }, { now: NOW, threshold: 0 })).to.equal(false);
      expect(needsRefresh({ expires: NOW + 99999 }, { now: NOW, threshold: -1 })).to.equal(true);
      expect(needsRefresh({ expires: 0 }, { now: NOW, threshold: 600 })).to.equal(true);
      expect(needsRefresh({ expires: null }, { now: NOW })).to.equal(true);
      expect(needsRefresh({}, { now: NOW })).to.equal(true);
    });

    it('matches its definition for any expiry and threshold', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 2 ** 31 }),
          fc.integer({ min: -5, max: 100000 }),
          (expires, threshold) => {
            const expected = threshold < 0 || expires === 0 || !(NOW < expires - threshold);
            return needsRefresh({ expires }, { now: NOW, threshold }) === expected;
          },
        ),
      );
    });
  });
});
