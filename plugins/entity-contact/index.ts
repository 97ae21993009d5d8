/** entity-contact's public surface: how a person's display and sort names are built. */
export { individualDisplayName, individualSortName } from './names';
export { contactExamples } from './explorer-examples';
