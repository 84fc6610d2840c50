import type { BudgetFigures } from '../model-gateway.ts';

/** Why a turn was refused: the token budget, the money budget, or a money budget with no price for the model. */
export function budgetMessage(figures: BudgetFigures, call?: { provider: string; model: string }) {
  if (figures.limit === undefined || figures.limit === 'tokens')
    return `The project's token budget (${figures.max_tokens}) does not cover this turn: ${figures.spent_tokens} spent, ${figures.reserved_tokens} reserved by turns in progress, ${figures.requested_tokens} requested.`;
  if (figures.limit === 'price_unknown')
    return `The project has a budget in money (US$${figures.max_usd}) and no price is known for ${call === undefined ? 'this model' : `${call.provider}:${call.model}`}, so its turns are not run: add the model's price to the file FORJA_PRICES names.`;
  return `The project's money budget (US$${figures.max_usd}) does not cover this turn: US$${usd(figures.spent_usd)} spent, US$${usd(figures.reserved_usd)} reserved by turns in progress, US$${usd(figures.requested_usd)} requested at full price.`;
}

const usd = (value: number | null | undefined) => (value ?? 0).toFixed(6);
