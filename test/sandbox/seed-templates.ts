import { TEMPLATE_STATUSES, type Template, type TemplateComponent } from './types';

// Provider templates of the official-channel integration, shaped like the provider's (Meta) listing:
// all seven statuses, every header format and button kind, NAMED and POSITIONAL parameters.

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

const TOPICS = [
	{ topic: 'order_update', category: 'UTILITY', sub: 'ORDER_STATUS', body: 'Hello {{1}}, your order {{2}} has been updated.' },
	{ topic: 'appointment_reminder', category: 'UTILITY', sub: 'CUSTOM', body: 'Reminder: your appointment is on {{1}} at {{2}}.' },
	{ topic: 'welcome', category: 'MARKETING', sub: 'CUSTOM', body: 'Welcome to our store, {{1}}! Reply to talk to us.' },
	{ topic: 'payment_due', category: 'UTILITY', sub: 'CUSTOM', body: 'Your invoice of {{1}} is due on {{2}}.' },
	{ topic: 'shipping_notice', category: 'UTILITY', sub: 'ORDER_STATUS', body: 'Your package left our warehouse. Tracking code: {{1}}.' },
	{ topic: 'verification_code', category: 'AUTHENTICATION', sub: 'CUSTOM', body: '{{1}} is your verification code.' },
	{ topic: 'promo_offer', category: 'MARKETING', sub: 'CUSTOM', body: 'Only today: {{1}} off everything in the store.' },
];
const LANGUAGES = ['pt_BR', 'en_US', 'es_ES'];
const SCORES = ['GREEN', 'YELLOW', 'RED', 'UNKNOWN'];

/** Components vary by index so every header format and button kind occurs. */
function componentsFor(i: number, body: string, named: boolean, authentication: boolean): TemplateComponent[] {
	const bodyText = named ? body.replace(/\{\{(\d)\}\}/g, (_m, d: string) => `{{param_${d}}}`) : body;
	const bodyComponent: TemplateComponent = { type: 'BODY', text: bodyText, example: { body_text: [['Alice', '48213']] } };
	if (authentication) {
		return [bodyComponent, { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] }];
	}
	const footer: TemplateComponent = { type: 'FOOTER', text: 'Reply STOP to unsubscribe' };
	switch (i % 5) {
		case 0:
			return [
				{ type: 'HEADER', format: 'TEXT', text: named ? 'Hi {{name}}' : 'Hi {{1}}', example: named ? { header_text_named_params: [{ param_name: 'name', example: 'Alice' }] } : { header_text: ['Alice'] } },
				bodyComponent,
				footer,
				{ type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Talk to us' }, { type: 'URL', text: 'Open site', url: 'https://shop.example.com/{{1}}', example: ['orders'] }] },
			];
		case 1:
			return [
				{ type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://cdn.example.com/header.png'] } },
				bodyComponent,
				{ type: 'BUTTONS', buttons: [{ type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+5511900000002' }] },
			];
		case 2:
			return [{ type: 'HEADER', format: 'VIDEO', example: { header_handle: ['https://cdn.example.com/intro.mp4'] } }, bodyComponent];
		case 3:
			return [{ type: 'HEADER', format: 'DOCUMENT', example: { header_handle: ['https://cdn.example.com/invoice.pdf'] } }, bodyComponent, footer];
		default:
			return [
				{ type: 'HEADER', format: 'LOCATION' },
				bodyComponent,
				{ type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', text: 'Copy offer code', example: ['SAVE10'] }] },
			];
	}
}

/** Template i: the first seven have all seven statuses; topic cycles through TOPICS; names are unique. */
export function buildTemplates(count: number): Template[] {
	const list: Template[] = [];
	for (let i = 0; i < count; i++) {
		const t = TOPICS[i % TOPICS.length];
		const named = i % 2 === 0;
		list.push({
			id: String(1_200_000_000_000_000 + i * 7919),
			name: `${t.topic}_${pad(i, 4)}`,
			language: LANGUAGES[i % LANGUAGES.length],
			// shifted every 7 so that status and topic do not move in lockstep
			status: TEMPLATE_STATUSES[(i + Math.floor(i / 7)) % TEMPLATE_STATUSES.length],
			category: t.category,
			sub_category: t.sub,
			parameter_format: named ? 'NAMED' : 'POSITIONAL',
			components: componentsFor(i, t.body, named, t.category === 'AUTHENTICATION'),
			quality_score: { score: SCORES[i % SCORES.length] },
		});
	}
	return list;
}
