/** A start-up failure the operator fixes outside the program (e.g. a database that is not there): its message alone is printed, without a stack. */
export class StartupError extends Error {}
