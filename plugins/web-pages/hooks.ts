import { defineHook } from '../../kernel';

/** A named example call shown in the API Explorer for one entity (change history 5.8). */
export interface ExplorerExample {
  /** 3 or 4: the API the example is written for. */
  version: 3 | 4;
  entity: string;
  action: string;
  /** Short title shown in the list, unique per (version, entity). */
  name: string;
  description?: string;
  /** The params exactly as the API takes them (APIv3: the `json` object; APIv4: the `params` object). */
  params: Record<string, unknown>;
}

/** A link on the home page and in the page header (OAuth administration, the API reference…). */
export interface WebLink {
  href: string;
  label: string;
  description: string;
  /** Shown only to callers holding this permission; absent: shown to everyone. */
  permission?: string;
}

export const explorerExamples = defineHook.collect<ExplorerExample, []>(
  'explorer.examples',
  'Example API calls per entity, listed in the API Explorer (collect: return examples)',
);

export const webLinks = defineHook.collect<WebLink, []>(
  'web.links',
  'Pages other plugins add to the home page and the page header (collect: return links)',
);
