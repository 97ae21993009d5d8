/**
 * api3-constant: the deprecated APIv3 Constant.get (deprecated since 4.3.0: use getoptions). `name` names a
 * constant of the reference (`gender`, `locationType`…); the answer is that field's getoptions, with the
 * reference's deprecation notice. A constant whose entity is not installed is refused, naming it.
 */
import { definePlugin, KernelError } from '../../kernel';

/** The reference's constant names this service can answer, and the field whose options they are. */
export const CONSTANTS: Record<string, [entity: string, field: string]> = {
  activityStatus: ['Activity', 'status_id'],
  activityType: ['Activity', 'activity_type_id'],
  contactType: ['Contact', 'contact_type'],
  country: ['Address', 'country_id'],
  county: ['Address', 'county_id'],
  gender: ['Contact', 'gender_id'],
  group: ['GroupContact', 'group_id'],
  individualPrefix: ['Contact', 'prefix_id'],
  individualSuffix: ['Contact', 'suffix_id'],
  locationType: ['Address', 'location_type_id'],
  phoneType: ['Phone', 'phone_type_id'],
  relationshipType: ['Relationship', 'relationship_type_id'],
  stateProvince: ['Address', 'state_province_id'],
  tag: ['EntityTag', 'tag_id'],
  worldRegion: ['Country', 'region_id'],
};

export const DEPRECATION =
  'The Constant api is deprecated as of CiviCRM 4.4. Please use the getoptions api action instead.';

export default definePlugin(({ actions }) => {
  actions.define({
    version: 3,
    entity: 'Constant',
    action: 'get',
    description: 'Deprecated (4.3.0): the options of a named constant (gender, locationType…); use getoptions',
    params: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', enum: Object.keys(CONSTANTS) } },
    },
    permission: 'access CRM',
    handler: async (params, ctx) => {
      const [entity, field] = CONSTANTS[(params as { name: string }).name];
      let answer: Record<string, unknown>;
      try {
        answer = (await ctx.call(entity, 'getoptions', { field }, { version: 3 })) as Record<string, unknown>;
      } catch (err) {
        if (err instanceof KernelError && err.code === 'E_NOT_FOUND')
          throw new KernelError(
            'E_INVALID_PARAMS',
            `Constant ${String((params as { name: string }).name)}: ${entity} is not installed`,
          );
        throw err;
      }
      return { ...answer, deprecated: DEPRECATION };
    },
  });
});
