/**
 * A case type's definition as a structure (the shape the reference's APIs give for CaseType.definition):
 * activityTypes, activitySets (with timelines), caseRoles, statuses. Checked with ajv on every write.
 */
import { compileOnFirstUse, compileWith, KernelError, type AjvFlavor } from '../../kernel';

const scalar = { type: ['string', 'number', 'boolean'] };
const named = (extra: Record<string, unknown>) => ({
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1 }, ...extra },
});

export const DEFINITION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    activityTypes: { type: 'array', items: named({ max_instances: scalar }) },
    activitySets: {
      type: 'array',
      items: named({
        label: { type: 'string' },
        timeline: scalar,
        activityTypes: {
          type: 'array',
          items: named({
            status: { type: 'string' },
            reference_activity: { type: 'string' },
            reference_offset: scalar,
            reference_select: { type: 'string' },
          }),
        },
      }),
    },
    caseRoles: { type: 'array', items: named({ creator: scalar, manager: scalar }) },
    statuses: { type: 'array', items: { type: 'string' } },
    timelineActivityTypes: { type: 'array', items: named({}) },
    activityAsgmtGrps: { type: 'array', items: { type: 'string' } },
    restrictActivityAsgmtToCmsUser: scalar,
    forkable: scalar,
  },
} as const;

export interface ActivityStep {
  name: string;
  status?: string;
  reference_activity?: string;
  reference_offset?: string | number;
}
export interface CaseDefinition {
  activityTypes?: Array<{ name: string; max_instances?: string | number }>;
  activitySets?: Array<{ name: string; label?: string; timeline?: unknown; activityTypes?: ActivityStep[] }>;
  caseRoles?: Array<{ name: string; creator?: unknown; manager?: unknown }>;
  statuses?: string[];
}

const DEFINITION_FLAVOR: AjvFlavor = { options: { allErrors: true, allowUnionTypes: true } };
// Compiled on the first write of a definition, not at every start.
const validate = compileOnFirstUse(() => compileWith(DEFINITION_FLAVOR, DEFINITION_SCHEMA));

/** The definition as a structure (JSON text is parsed), or a clear E_INVALID_PARAMS naming what is wrong. */
export function checkDefinition(value: unknown): CaseDefinition | null {
  if (value === null || value === undefined || value === '') return null;
  let definition = value;
  if (typeof value === 'string') {
    try {
      definition = JSON.parse(value);
    } catch {
      throw badDefinition(['it is not a structure (nor JSON text of one)']);
    }
  }
  if (validate(definition)) return definition as CaseDefinition;
  const problems = (validate.errors ?? []).map(
    (error) => `definition${error.instancePath.replace(/\//g, '.')} ${error.message ?? 'is invalid'}`,
  );
  throw badDefinition(problems);
}

function badDefinition(problems: string[]): KernelError {
  return new KernelError('E_INVALID_PARAMS', `Invalid case type definition: ${problems.join('; ')}`, {
    details: { error_code: 'invalid value', error_field: 'definition' },
  });
}

/** Truthy flags as the reference writes them ('1', 1, true). */
export const isSet = (flag: unknown): boolean => flag === true || flag === 1 || flag === '1' || flag === 'true';
