/**
 * entity-profile: UFGroup, UFField and UFJoin (metadata plus the rules in uf-lifecycle.ts), the APIv3 Profile
 * pseudo-entity (get, submit, getfields; 4.4.0) and the profile permissions.
 */
import { definePlugin, type ActionContext } from '../../kernel';
import type { EntityRegistry, EntityService } from '../entity-core';
import { permissionsCatalogue } from '../users';
import { profileGet, profileGetfields } from './profile-read';
import { PROFILE_PERMISSIONS, profileSubmit } from './profile-submit';
import { extendProfiles } from './uf-lifecycle';

type Params = Record<string, unknown>;
const open = { type: 'object', additionalProperties: true };

export default definePlugin(({ services, hooks, actions }) => {
  extendProfiles(services.resolve<EntityRegistry>('entities'));
  const service = () => services.resolve<EntityService>('entityService');
  const bound = (ctx: ActionContext, trusted: boolean) =>
    service().bind({ db: ctx.db, principal: ctx.principal, scope: ctx.scope, trusted: trusted || ctx.trusted });

  hooks.tap(permissionsCatalogue, () => [
    {
      name: PROFILE_PERMISSIONS.create,
      label: 'CRM: create contacts through profiles',
      description: 'Profile.submit without a contact creates one (public sign-up forms)',
    },
    {
      name: PROFILE_PERMISSIONS.edit,
      label: 'CRM: edit own contact through profiles',
      description: "Profile.submit on the caller's own contact",
    },
    {
      name: PROFILE_PERMISSIONS.view,
      label: 'CRM: view contacts through profiles',
      description: 'Profile.get and Profile.getfields (the contact must still be visible to the caller)',
    },
  ]);

  const reader = { anyOf: ['access CRM', ...Object.values(PROFILE_PERMISSIONS)] };
  actions.define({
    version: 3,
    entity: 'Profile',
    action: 'get',
    description: "A contact's values for a profile's fields (profile_id: an id, a name or a list; 4.4.0)",
    params: open,
    permission: { anyOf: ['access CRM', PROFILE_PERMISSIONS.view, PROFILE_PERMISSIONS.edit] },
    // Reads as the caller: a contact the caller may not see is refused.
    handler: (params: Params, ctx) => profileGet(params, bound(ctx, true), bound(ctx, false)),
  });
  actions.define({
    version: 3,
    entity: 'Profile',
    action: 'submit',
    description: 'Updates (or creates) a contact and its email, phone, address and website through a profile (4.4.0)',
    params: open,
    permission: { anyOf: ['access CRM', PROFILE_PERMISSIONS.create, PROFILE_PERMISSIONS.edit] },
    writes: true,
    handler: (params: Params, ctx) => profileSubmit(params, bound(ctx, true), ctx),
  });
  actions.define({
    version: 3,
    entity: 'Profile',
    action: 'getfields',
    description:
      "The fields of Profile.get / Profile.submit; with action=submit and profile_id, the profile's fields (4.4.0)",
    params: open,
    permission: reader,
    handler: (params: Params, ctx) => profileGetfields(params, bound(ctx, true), ctx),
  });
});
