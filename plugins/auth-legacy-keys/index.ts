/**
 * auth-legacy-keys has no public surface: it only taps auth.credential. Other plugins import
 * nothing from it; this file exists so every plugin has one import point (docs/architecture.md).
 */
export {};
