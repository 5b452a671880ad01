/** The app's dependencies that /health/ready asks, by name. */
export const READINESS_CHECKS = Symbol('READINESS_CHECKS');
