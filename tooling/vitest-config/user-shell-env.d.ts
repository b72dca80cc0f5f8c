/** process.env as a user's shell has it (no package-manager script variables, no NODE_PATH), plus `extra`. */
export declare function userShellEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
