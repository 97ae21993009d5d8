import { expect } from 'chai';
import { KeptByVersion, permissionsText, type CompiledEntity } from '../../../plugins/entity-core';

/** What reads keep (the store's compiled reads, APIv4's get resolutions): bounded, recent first, per version. */
describe('entity-core KeptByVersion: what a read worked out, kept for the next identical one', () => {
  const contact = { name: 'Contact' } as CompiledEntity;
  const entry = (n: number) => ({ entity: contact, n });
  let version = 1;
  const kept = (max: number) => new KeptByVersion<ReturnType<typeof entry>>(() => version, max);

  it('holds at most `max` entries, evicting the least recently used once it is past half full', () => {
    const k = kept(8);
    for (let i = 0; i < 8; i++) k.set(`k${i}`, entry(i));
    // Past half full: a read moves its entry to the recent end.
    expect(k.get('k0', contact)?.n).to.equal(0);
    k.set('k8', entry(8));
    expect(k.size).to.equal(8);
    expect(k.get('k1', contact), 'the oldest unused entry goes first').to.equal(undefined);
    expect(k.get('k0', contact)?.n, 'the entry read just before stays').to.equal(0);
    for (let i = 9; i < 15; i++) k.set(`k${i}`, entry(i));
    expect(k.get('k0', contact)?.n, 'read again, it outlives the entries set before its last read').to.equal(0);
    expect(k.get('k2', contact)).to.equal(undefined);
  });

  it('answers only for the metadata object it was made with, and forgets everything when the version moves', () => {
    const k = kept(8);
    k.set('a', entry(1));
    expect(k.get('a', { name: 'Contact' } as CompiledEntity)).to.equal(undefined);
    expect(k.get('a', contact)?.n).to.equal(1);
    version++;
    expect(k.get('a', contact)).to.equal(undefined);
    expect(k.size).to.equal(0);
  });

  it('does not keep what was made while the version moved (it may hold what was just forgotten)', async () => {
    const k = kept(8);
    const made = await k.made('b', async () => {
      version++;
      return entry(2);
    });
    expect(made.n).to.equal(2);
    expect(k.get('b', contact)).to.equal(undefined);
    await k.made('b', async () => entry(3));
    expect(k.get('b', contact)?.n).to.equal(3);
  });

  it('keys a permission set by its members in order, made again should the set grow', () => {
    const held = new Set(['access CRM', 'view all contacts']);
    expect(permissionsText(held)).to.equal('access CRM\nview all contacts\n');
    expect(permissionsText(new Set(['view all contacts', 'access CRM']))).to.equal('view all contacts\naccess CRM\n');
    held.add('administer CRM');
    expect(permissionsText(held)).to.equal('access CRM\nview all contacts\nadminister CRM\n');
  });
});
