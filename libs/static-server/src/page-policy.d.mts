/** Where browsers send violation reports (the data service logs and counts them). */
export const CSP_REPORT_PATH: string;

/** `Reporting-Endpoints`: the endpoint named by the policy's `report-to`. */
export const REPORTING_ENDPOINTS: string;

/** CSP source expressions (`'sha256-…'`) of the inline scripts of a page, in order. */
export function inlineScriptHashes(html: string): string[];

/** The shop page's policy (docs/security.md). */
export function pagePolicy(options: { scriptHashes: string[]; connectSources?: string[] }): string;
