/** Amounts in major units (nodes/PaymentWebhookTrigger/money.ts): the decimals of each currency. */
import { currencyDecimals, majorUnits } from '../../nodes/PaymentWebhookTrigger/money';
import { scenario } from '../../support/scenarios';

describe(scenario('paymentWebhook.amounts'), () => {
	it.each([
		[10000, 'USD', '100.00'],
		[5, 'usd', '0.05'],
		[0, 'EUR', '0.00'],
		[-250, 'EUR', '-2.50'],
		[1000, 'JPY', '1000'],
		[500, 'krw', '500'],
		[1, 'KWD', '0.001'],
		[123456789, 'GBP', '1234567.89'],
	])('%d %s is %s', (minor, currency, major) => {
		expect(majorUnits(minor, currency)).toBe(major);
	});

	it('knows the decimals of the currencies that differ', () => {
		expect(['JPY', 'KRW', 'VND', 'CLP'].map(currencyDecimals)).toEqual([0, 0, 0, 0]);
		expect(['BHD', 'JOD', 'KWD', 'OMR', 'TND'].map(currencyDecimals)).toEqual([3, 3, 3, 3, 3]);
		expect(['USD', 'EUR', 'GBP'].map(currencyDecimals)).toEqual([2, 2, 2]);
	});
});
