/**
 * The reference's spellings, off by default. Routes are the rest-api3 and rest-api4 handlers mounted at CiviCRM's
 * paths (skipping any path rest-api3 already serves, e.g. an externPrefix set to CiviCRM's); the
 * reference's header and permission names reach the auth plugins through hooks those plugins own.
 */
import { definePlugin } from '../../kernel';
import { httpRoutes } from '../../host';
import { authxHeaders } from '../auth-authx';
import { permissionAliases } from '../users';
import { makeRoutes, type RestApi3Binding } from '../rest-api3';
import { makeApi4Routes, type RestApi4Binding } from '../rest-api4';
import type { CompatCivicrm } from './types';

export const CIVICRM_PATHS = {
  ajax: '/civicrm/ajax/rest',
  extern: '/sites/all/modules/civicrm/extern/rest.php',
  wp: '/wp-json/civicrm/v3/rest',
  api4: '/civicrm/ajax/api4',
} as const;

export const COMPAT: CompatCivicrm = Object.freeze({
  authHeaders: Object.freeze(['x-civi-auth']),
  siteKeyHeaders: Object.freeze(['x-civi-key']),
  permissionAliases: Object.freeze({
    'administer CiviCRM': 'administer CRM',
    'administer CiviCRM data': 'administer CRM data',
    'administer CiviCRM system': 'administer CRM system',
    'access CiviCRM': 'access CRM',
    'access CiviCRM backend and API': 'access CRM',
    'access CiviContribute': 'access contributions',
    'delete in CiviContribute': 'delete contributions',
    'access CiviEvent': 'access events',
    'view event info': 'view events',
    'edit all events': 'edit events',
    'delete in CiviEvent': 'delete events',
    'view event participants': 'view participants',
    'edit event participants': 'edit participants',
    'access my cases and activities': 'access own cases',
    'access all cases and activities': 'access all cases',
    'add cases': 'open cases',
    'delete in CiviCase': 'delete cases',
    'administer CiviCase': 'administer cases',
    'access CiviMember': 'access memberships',
    'delete in CiviMember': 'delete memberships',
    'access CiviPledge': 'access pledges',
    'delete in CiviPledge': 'delete pledges',
    'profile create': 'create contacts through profiles',
    'profile edit': 'edit own contact through profiles',
    'profile view': 'view contacts through profiles',
    'profile listings': 'view contacts through profiles',
    'profile listings and forms': 'view contacts through profiles',
  }),
});

export default definePlugin(({ hooks, services, serviceConfig }) => {
  // Taps on hooks of plugins that may be disabled: they simply never run then.
  hooks.tap(authxHeaders, () => ({ auth: COMPAT.authHeaders, siteKey: COMPAT.siteKeyHeaders }));
  hooks.tap(permissionAliases, () => COMPAT.permissionAliases);
  const own = (serviceConfig.pluginConfig['rest-api3'] ?? {}) as { externPrefix?: string };
  const neutralExtern = `${(own.externPrefix ?? '/crm').replace(/\/+$/, '')}/extern/rest.php`;
  hooks.tap(httpRoutes, () => {
    const binding = services.resolve<RestApi3Binding>('restApi3');
    return makeRoutes(binding, {
      ajax: [CIVICRM_PATHS.ajax],
      extern: CIVICRM_PATHS.extern === neutralExtern ? [] : [CIVICRM_PATHS.extern],
      wp: [CIVICRM_PATHS.wp],
    });
  });
  // APIv4: /civicrm/ajax/api4/{Entity}/{action} and /civicrm/ajax/api4 (routes api4-call, api4-multi).
  hooks.tap(httpRoutes, () =>
    makeApi4Routes(services.resolve<RestApi4Binding>('restApi4'), [CIVICRM_PATHS.api4], 'api4-'),
  );
});
