/**
 * system has no public surface: it only defines System.get and /healthz. Other plugins import
 * nothing from it; this file exists so every plugin has one import point (docs/architecture.md).
 */
export {};
