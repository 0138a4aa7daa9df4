import type { LegalTexts } from './types.ts';

export const texts: LegalTexts = {
  privacy: {
    title: 'Privacy Policy',
    updated: 'Last updated: 21 November 2026',
    sections: [
      {
        heading: 'Who we are',
        paragraphs: [
          'Tradewind operates this trading and wallet service. This policy explains what personal data we collect when you use it, why, how long we keep it and what rights you have.',
        ],
      },
      {
        heading: 'What we collect',
        paragraphs: [
          'Account data: your email address or phone number, your password (stored only as a one-way hash), your nickname and avatar, and the invitation code you registered with.',
          'Identity verification (KYC) data: your name, nationality, document type and number, and photos of your document and face. These files are private: only you and the staff who review them can open them.',
          'Financial data: balances, deposits, withdrawals, transfers, conversions, orders and the addresses and bank cards you use for them.',
          'Technical data: the devices you sign in from, IP addresses, sign-in times and the language you chose.',
        ],
      },
      {
        heading: 'Why we use it',
        paragraphs: [
          'To provide the service: keep your account and funds, carry out the operations you ask for, and show you your history.',
          'To keep your account safe: verification codes, session management, detecting unusual sign-ins and preventing fraud.',
          'To meet legal duties, such as identity verification and record keeping for financial services.',
          'We do not sell your personal data and we do not use it for advertising.',
        ],
      },
      {
        heading: 'Who we share it with',
        paragraphs: [
          'Only with the providers we need to run the service (hosting, email and SMS delivery, blockchain networks for on-chain transfers) and with authorities when the law requires it. Each provider receives only what its task needs.',
        ],
      },
      {
        heading: 'How long we keep it',
        paragraphs: [
          'Account and financial records are kept for as long as your account exists and afterwards for the period financial regulations require. Verification codes expire after 10 minutes. Signed-out sessions are kept only as a security record.',
        ],
      },
      {
        heading: 'Your rights',
        paragraphs: [
          'You can see and correct your profile in the app, sign out any device, and ask us for a copy of your data or for its deletion where the law allows. Contact customer service in the app to do so.',
        ],
      },
      {
        heading: 'Security',
        paragraphs: [
          'Passwords are hashed with argon2id, session tokens are stored only as hashes, connections are encrypted, and every operation on your balance is recorded in a double-entry ledger that nobody can edit.',
        ],
      },
      {
        heading: 'Changes',
        paragraphs: [
          'If this policy changes we will show the new version here with its date and tell you in the app before it takes effect.',
        ],
      },
    ],
  },
  terms: {
    title: 'Terms of Service',
    updated: 'Not yet published',
    sections: [
      {
        heading: 'To be published',
        paragraphs: [
          'The terms of service will be published here before the service opens to the public. Until then, please read the privacy policy.',
        ],
      },
    ],
  },
};
