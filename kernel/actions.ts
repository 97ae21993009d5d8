/**
 * The action registry, keyed by (API version, entity, action).
 *
 * Each API version may bring naming rules (APIv3's come from the api3 plugin: `contact` → `Contact`);
 * without them entities match exactly and action names case-insensitively. An action defined for
 * entity `'*'` is generic: it serves every entity its `entities()` lists, unless that entity defines
 * the same action itself (the reference resolves entity-specific functions before generic ones).
 */
import type { ValidateFunction } from 'ajv';
import { KernelError } from './errors';
import { compileOnFirstUse, compileShared, schemaProblems } from './schema';
import type { ActionContext, Permission } from './types';

export interface ActionDefinition<P = Record<string, unknown>, R = unknown> {
  /** API version this action belongs to (3 or 4). */
  version: number;
  /** PascalCase entity, or `'*'` for a generic action. */
  entity: string;
  /** camelCase action name. */
  action: string;
  description: string;
  /**
   * JSON Schema of the params: checked against the meta-schema when defined, so a malformed schema fails at
   * boot; compiled on the action's first call (what only compiling finds, e.g. ajv's strict mode, fails there).
   */
  params: object;
  /**
   * Checked by the default `api.authorize` tap. A function decides from the params and the entity it
   * was resolved for (create vs update; the per-entity map of a generic action).
   */
  permission: Permission | ((params: P, entity: string) => Permission);
  /** Whether the handler writes: the kernel runs it in a transaction. */
  writes?: boolean;
  /** For generic (`'*'`) actions: the entities served. Read lazily, at call and list time. */
  entities?: () => readonly string[];
  /**
   * Reachable only by in-process requests that say `internal: true` (a plugin's own routes and jobs):
   * API bindings and chained calls never reach it, and catalogues do not list it. Authorization still
   * runs in the pipeline.
   */
  internal?: boolean;
  handler(params: P, ctx: ActionContext): Promise<R> | R;
}

export interface CompiledAction extends ActionDefinition<Record<string, unknown>, unknown> {
  readonly plugin: string;
  readonly validate: ValidateFunction;
  /** The entity it was resolved for (differs from `entity` for generic actions). */
  readonly resolvedEntity: string;
}

export interface ActionListing {
  version: number;
  entity: string;
  action: string;
  description: string;
  permission: ActionDefinition['permission'];
  plugin: string;
  generic: boolean;
}

/** What a plugin may do with the registry. */
export interface ActionRegistrar {
  define<P = Record<string, unknown>, R = unknown>(def: ActionDefinition<P, R>): void;
  /** Sets the naming rules of an API version (one plugin per version). */
  naming(version: number, rules: VersionNaming): void;
}

/**
 * How one API version spells entity and action names, and how it words an unknown action. The plugin
 * that implements the version registers it (api3 for the reference's APIv3 rules); a version without
 * naming rules matches entities exactly and actions case-insensitively.
 */
export interface VersionNaming {
  entity(raw: string): string;
  action(raw: string): string;
  notFound?(entity: string, action: string): string;
}

export class ActionRegistry {
  private exact = new Map<string, CompiledAction>();
  private generic = new Map<string, CompiledAction>();
  private namings = new Map<number, { plugin: string; rules: VersionNaming }>();
  private sealed = false;

  setNaming(plugin: string, version: number, rules: VersionNaming): void {
    const existing = this.namings.get(version);
    if (existing)
      throw new KernelError(
        'E_ACTION_DUPLICATE',
        `Naming rules of APIv${version} are set by both ${existing.plugin} and ${plugin}`,
        { plugin },
      );
    this.namings.set(version, { plugin, rules });
  }

  /** The naming rules of a version, when a plugin set them. */
  naming(version: number): VersionNaming | undefined {
    return this.namings.get(version)?.rules;
  }

  /** Why an action does not resolve, in the version's own wording when it has one. */
  notFoundMessage(version: number, entity: string, action: string): string {
    return this.naming(version)?.notFound?.(entity, action) ?? `API v${version} ${entity}.${action} does not exist`;
  }

  define<P, R>(plugin: string, def: ActionDefinition<P, R>): void {
    if (this.sealed)
      throw new KernelError(
        'E_REGISTRY_SEALED',
        `Plugin ${plugin} defined ${def.entity}.${def.action} after boot sealed the registry`,
        { plugin },
      );
    const isGeneric = def.entity === '*';
    const key = keyOf(def.version, def.entity, def.action);
    const map = isGeneric ? this.generic : this.exact;
    const existing = map.get(key);
    if (existing) {
      throw new KernelError(
        'E_ACTION_DUPLICATE',
        `Action v${def.version} ${def.entity}.${def.action} is defined by both ${existing.plugin} and ${plugin}`,
        { plugin },
      );
    }
    if (isGeneric && typeof def.entities !== 'function') {
      throw new KernelError(
        'E_MANIFEST_INVALID',
        `Generic action ${def.action} of plugin ${plugin} needs an entities() list`,
        { plugin },
      );
    }
    const refuse = (why: string, cause?: unknown) =>
      new KernelError('E_MANIFEST_INVALID', `Plugin ${plugin}: params schema of ${def.entity}.${def.action} ${why}`, {
        plugin,
        cause,
      });
    // Checked against the JSON Schema meta-schema now, compiled on the action's first call: compiling every
    // params schema at boot was ~0.2 s of each start (docs/performance.md, Start-up time).
    const problems = schemaProblems(def.params);
    if (problems) throw refuse(`is invalid: ${problems}`);
    const validate = compileOnFirstUse(() => {
      try {
        return compileShared(def.params);
      } catch (err) {
        throw refuse(`does not compile: ${(err as Error).message}`, err);
      }
    });
    map.set(key, { ...(def as unknown as ActionDefinition), plugin, validate, resolvedEntity: def.entity });
  }

  registrarFor(plugin: string): ActionRegistrar {
    return {
      define: (def) => this.define(plugin, def),
      naming: (version, rules) => this.setNaming(plugin, version, rules),
    };
  }

  seal(): void {
    this.sealed = true;
  }

  /** Resolves an action, after the version's naming rules (if any) normalised both names. */
  get(version: number, rawEntity: string, rawAction: string): CompiledAction | undefined {
    const naming = this.naming(version);
    const entity = naming ? naming.entity(rawEntity) : rawEntity;
    const action = naming ? naming.action(rawAction) : rawAction;
    const own = this.exact.get(keyOf(version, entity, action));
    if (own) return own;
    const gen = this.generic.get(keyOf(version, '*', action));
    if (gen && gen.entities!().includes(entity)) return { ...gen, resolvedEntity: entity };
    return undefined;
  }

  /** Every entity known for a version (from specific and generic actions). */
  entities(version: number): string[] {
    const names = new Set<string>();
    for (const a of this.exact.values()) if (a.version === version) names.add(a.entity);
    for (const a of this.generic.values()) if (a.version === version) a.entities!().forEach((e) => names.add(e));
    return [...names].sort();
  }

  /** The catalogue: feeds getactions/getActions and docs/actions.md. Generic actions are expanded per entity. */
  list(filter: { version?: number; entity?: string } = {}): ActionListing[] {
    const out: ActionListing[] = [];
    const seen = new Set<string>();
    const push = (a: CompiledAction, entity: string, generic: boolean) => {
      const k = keyOf(a.version, entity, a.action);
      if (seen.has(k)) return;
      seen.add(k);
      out.push({
        version: a.version,
        entity,
        action: a.action,
        description: a.description,
        permission: a.permission,
        plugin: a.plugin,
        generic,
      });
    };
    for (const action of this.exact.values()) if (!action.internal) push(action, action.entity, false);
    for (const action of this.generic.values())
      for (const entityName of action.entities!()) push(action, entityName, true);
    return out
      .filter(
        (a) =>
          (filter.version === undefined || a.version === filter.version) &&
          (filter.entity === undefined || a.entity === filter.entity),
      )
      .sort((a, b) => a.version - b.version || a.entity.localeCompare(b.entity) || a.action.localeCompare(b.action));
  }
}

function keyOf(version: number, entity: string, action: string): string {
  return `${version}:${entity}:${action.toLowerCase()}`;
}
