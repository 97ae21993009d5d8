/** api3-constant's public surface: the constants it answers and the deprecation notice. */
export { CONSTANTS, DEPRECATION } from './register';
