/** ContributionPage behaviour: the public title defaults to the title, the unique name to the title as a slug. */
import { present, type EntityRegistry, type SaveContext } from '../entity-core';

type Row = Record<string, unknown>;

function beforeSave(values: Row, sc: SaveContext): Row {
  if (sc.existing) return values;
  const out: Row = { ...values };
  if (!present(out.frontend_title)) out.frontend_title = out.title;
  if (!present(out.name) && present(out.title))
    out.name =
      String(out.title)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_+|_+$/g, '')
        .slice(0, 200) || 'page';
  return out;
}

export function extendPages(entities: EntityRegistry): void {
  entities.extend('ContributionPage', { beforeSave });
}
