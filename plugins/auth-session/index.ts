/** auth-session's public surface: the login and logout pages it renders. */
export { loginPage, logoutPage } from './pages';
