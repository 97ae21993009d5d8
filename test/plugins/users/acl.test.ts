import { expect } from 'chai';
import fc from 'fast-check';
import { contactRowAccess, type RowOperation } from '../../../plugins/users/acl';

const who = (perms: string[], contactId: number | null = 7) => ({ contactId, permissions: new Set(perms) });

describe('users: contact row access (acl.ts)', () => {
  it("a contact's own records: read with the view rule, any write needs the edit rule on the contact", () => {
    expect(contactRowAccess('Email', 'view', who(['view my contact']))).to.deep.equal({ contactIds: [7] });
    expect(contactRowAccess('Email', 'view', who(['view all contacts']))).to.equal('all');
    expect(contactRowAccess('Email', 'create', who(['view all contacts']))).to.equal('none');
    expect(contactRowAccess('Phone', 'create', who(['edit my contact']))).to.deep.equal({ contactIds: [7] });
    expect(contactRowAccess('Phone', 'delete', who(['edit all contacts']))).to.equal('all');
    expect(contactRowAccess('Website', 'delete', who(['add contacts']))).to.equal('none');
  });
  it('view: all with view/edit all contacts, own contact with view/edit my contact, else none', () => {
    expect(contactRowAccess('Contact', 'view', who(['view all contacts']))).to.equal('all');
    expect(contactRowAccess('Contact', 'view', who(['edit all contacts']))).to.equal('all');
    expect(contactRowAccess('Contact', 'view', who(['view my contact']))).to.deep.equal({ contactIds: [7] });
    expect(contactRowAccess('Contact', 'view', who(['edit my contact']))).to.deep.equal({ contactIds: [7] });
    expect(contactRowAccess('Contact', 'view', who(['access CRM']))).to.equal('none');
  });
  it('edit: all only with edit all contacts; view all does not allow editing', () => {
    expect(contactRowAccess('Contact', 'edit', who(['edit all contacts']))).to.equal('all');
    expect(contactRowAccess('Contact', 'edit', who(['view all contacts']))).to.equal('none');
    expect(contactRowAccess('Contact', 'edit', who(['view all contacts', 'edit my contact']))).to.deep.equal({
      contactIds: [7],
    });
    expect(contactRowAccess('Contact', 'edit', who(['view my contact']))).to.equal('none');
  });
  it('delete needs delete contacts on top of the edit rule; create needs add contacts', () => {
    expect(contactRowAccess('Contact', 'delete', who(['edit all contacts']))).to.equal('none');
    expect(contactRowAccess('Contact', 'delete', who(['delete contacts', 'edit all contacts']))).to.equal('all');
    expect(contactRowAccess('Contact', 'delete', who(['delete contacts', 'edit my contact']))).to.deep.equal({
      contactIds: [7],
    });
    expect(contactRowAccess('Contact', 'create', who(['add contacts']))).to.equal('all');
    expect(contactRowAccess('Contact', 'create', who(['edit all contacts']))).to.equal('none');
  });
  it('an anonymous caller never gets "my contact"', () => {
    expect(contactRowAccess('Contact', 'view', who(['view my contact', 'edit my contact'], null))).to.equal('none');
  });
  it("'*' holds everything", () => {
    for (const op of ['view', 'edit', 'delete', 'create'] as RowOperation[])
      expect(contactRowAccess('Contact', op, who(['*']))).to.equal('all');
  });
  it('property: never wider than the permissions allow', () => {
    const perms = [
      'view all contacts',
      'edit all contacts',
      'view my contact',
      'edit my contact',
      'add contacts',
      'delete contacts',
      'access CRM',
    ];
    fc.assert(
      fc.property(
        fc.subarray(perms),
        fc.constantFrom<RowOperation>('view', 'edit', 'delete', 'create'),
        fc.option(fc.integer({ min: 1, max: 1e6 }), { nil: null }),
        (held, op, cid) => {
          const access = contactRowAccess('Contact', op, who(held, cid))!;
          if (access === 'all') {
            const need = {
              view: ['view all contacts', 'edit all contacts'],
              edit: ['edit all contacts'],
              delete: ['edit all contacts'],
              create: ['add contacts'],
            }[op];
            return need.some((p) => held.includes(p)) && (op !== 'delete' || held.includes('delete contacts'));
          }
          if (access === 'none') return true;
          return cid !== null && access.contactIds.length === 1 && access.contactIds[0] === cid;
        },
      ),
    );
  });
});
