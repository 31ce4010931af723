/** The workflow fixtures, one per operation, as a user would import them into n8n. */
import authorizationAuthorize from './authorization-authorize.json';
import authorizationAuthorizeAndRedirect from './authorization-authorizeAndRedirect.json';
import authorizationExchangeCode from './authorization-exchangeCode.json';
import authorizationGetDebugCode from './authorization-getDebugCode.json';
import conversionRefund from './conversion-refund.json';
import conversionTrackEvent from './conversion-trackEvent.json';
import conversionTrackPurchase from './conversion-trackPurchase.json';
import conversionTrackSignup from './conversion-trackSignup.json';
import promoterGet from './promoter-get.json';
import promoterGetBalances from './promoter-getBalances.json';
import promoterGetLinks from './promoter-getLinks.json';
import promoterGetStatistics from './promoter-getStatistics.json';
import promoterLogin from './promoter-login.json';

export const workflowFixtures = {
	'authorization-authorize': authorizationAuthorize,
	'authorization-authorizeAndRedirect': authorizationAuthorizeAndRedirect,
	'authorization-exchangeCode': authorizationExchangeCode,
	'authorization-getDebugCode': authorizationGetDebugCode,
	'conversion-refund': conversionRefund,
	'conversion-trackEvent': conversionTrackEvent,
	'conversion-trackPurchase': conversionTrackPurchase,
	'conversion-trackSignup': conversionTrackSignup,
	'promoter-get': promoterGet,
	'promoter-getBalances': promoterGetBalances,
	'promoter-getLinks': promoterGetLinks,
	'promoter-getStatistics': promoterGetStatistics,
	'promoter-login': promoterLogin,
};

export type WorkflowFixtureName = keyof typeof workflowFixtures;
