/** Template evaluation (reference §7.2): mail/generic templates and contactTemplate, as pure functions. */
import { expect } from 'chai';
import { contactCreateParams } from '../../../plugins/oauth-client/contact-link';
import { evaluateContactTemplate, evaluateTemplate } from '../../../plugins/oauth-client/templates';

const vars = {
  token: { resource_owner: { mail: 'Ann.Example@Example.ORG', email: 'ann@example.org' }, tag: 'MailSettings:setup' },
  client: { id: 3, guid: 'g-1' },
  provider: { title: 'Example Mail' },
};

describe('oauth-client templates', () => {
  it('mail: interpolates top-level strings, getMailDomain/getMailUser, missing → "", unknown filter → "", non-strings kept', () => {
    const out = evaluateTemplate(
      {
        name: '{{provider.title}}: {{token.resource_owner.mail}}',
        domain: '{{token.resource_owner.mail|getMailDomain}}',
        username: '{{token.resource_owner.email|getMailUser}}',
        missing: 'x{{token.nothing.here}}y',
        unknown: '{{token.resource_owner.email|shout}}',
        localpart: null,
        is_ssl: true,
        nested: { a: '{{client.id}}' },
      },
      vars,
    );
    expect(out).to.deep.equal({
      name: 'Example Mail: Ann.Example@Example.ORG',
      domain: 'Example.ORG',
      username: 'ann',
      missing: 'xy',
      unknown: '',
      localpart: null,
      is_ssl: true,
      nested: { a: '{{client.id}}' },
    });
  });

  it('contactTemplate: every leaf recursively, replaced by the first expression, lowercase filter; values keep their type', () => {
    const tpl = {
      values: { contact_type: 'Individual', first_name: 'Dr {{token.tag}}', n: '{{client.id}}' },
      chain: {
        email: [
          'Email',
          'create',
          { values: { contact_id: '$id', email: '{{token.resource_owner.mail|lowercase}} and {{client.guid}}' } },
        ],
      },
    };
    const out = evaluateContactTemplate(tpl, vars);
    expect(out.values).to.deep.equal({ contact_type: 'Individual', first_name: 'MailSettings:setup', n: 3 });
    expect(out.chain.email[2]).to.deep.equal({ values: { contact_id: '$id', email: 'ann.example@example.org' } });
  });

  it('turns the APIv4 contactTemplate shape into APIv3 Contact.create params (chained Email.create)', () => {
    expect(
      contactCreateParams({
        values: { contact_type: 'Individual', first_name: 'A' },
        chain: { email: ['Email', 'create', { values: { contact_id: '$id', email: 'a@b.c' } }] },
      }),
    ).to.deep.equal({ contact_type: 'Individual', first_name: 'A', 'api.Email.create': { email: 'a@b.c' } });
    expect(contactCreateParams({ contact_type: 'Individual', email: 'a@b.c' })).to.deep.equal({
      contact_type: 'Individual',
      email: 'a@b.c',
    });
  });
});
