/**
 * For tests that check nothing the profile changes: neither the store nor Redis, and
 * nothing that CI found to differ between its Node.js releases (the commands' usage and
 * their refusals of a bad command line, worded by Node.js's parseArgs, passed on 20 and
 * 24 alike while both passes ran them). CI (`.ci/run`) runs the whole suite once per
 * profile and sets SKIP_PROFILE_INDEPENDENT_TESTS=1 on its embedded pass, so these run once a CI run, on
 * the production pass's Node.js 24; the spawns of every command cost that pass minutes.
 * Skipped, each says so in the report; `npm test` and `npm run test:pg` run them.
 */
export const profileIndependent = {
  skip: process.env.SKIP_PROFILE_INDEPENDENT_TESTS === '1' ? 'profile-independent, run on CI\'s production pass (SKIP_PROFILE_INDEPENDENT_TESTS=1)' : false,
};
