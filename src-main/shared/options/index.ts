// The options strategy arithmetic (issue 27): Black–Scholes, trading time, payoff curves, strategy
// statistics and templates. Pure code for the renderer (`@shared/options`) and the core.
export * from './types.js';
export * from './black-scholes.js';
export * from './trading-time.js';
export * from './payoff.js';
export * from './stats.js';
export * from './templates.js';
