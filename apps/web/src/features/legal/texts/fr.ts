import type { LegalTexts } from './types.ts';

export const texts: LegalTexts = {
  privacy: {
    title: 'Politique de confidentialité',
    updated: 'Dernière mise à jour : 21 novembre 2026',
    sections: [
      {
        heading: 'Qui sommes-nous',
        paragraphs: [
          "Tradewind exploite ce service d'échange et de portefeuille. Cette politique explique quelles données personnelles nous collectons lorsque vous l'utilisez, pourquoi, combien de temps nous les conservons et quels sont vos droits.",
        ],
      },
      {
        heading: 'Ce que nous collectons',
        paragraphs: [
          "Données de compte : votre adresse e-mail ou votre numéro de téléphone, votre mot de passe (stocké uniquement sous forme d'empreinte irréversible), votre pseudonyme et votre avatar, ainsi que le code d'invitation utilisé lors de votre inscription.",
          "Données de vérification d'identité (KYC) : votre nom, votre nationalité, le type et le numéro de votre pièce d'identité, ainsi que des photos de cette pièce et de votre visage. Ces fichiers sont privés : seuls vous et les membres du personnel chargés de les examiner peuvent les ouvrir.",
          'Données financières : soldes, dépôts, retraits, transferts, conversions, ordres, ainsi que les adresses et cartes bancaires que vous utilisez pour ces opérations.',
          'Données techniques : les appareils depuis lesquels vous vous connectez, les adresses IP, les heures de connexion et la langue que vous avez choisie.',
        ],
      },
      {
        heading: 'Pourquoi nous les utilisons',
        paragraphs: [
          'Pour fournir le service : tenir votre compte et vos fonds, exécuter les opérations que vous demandez et vous présenter votre historique.',
          'Pour protéger votre compte : codes de vérification, gestion des sessions, détection des connexions inhabituelles et prévention de la fraude.',
          "Pour respecter nos obligations légales, telles que la vérification d'identité et la conservation des registres propres aux services financiers.",
          'Nous ne vendons pas vos données personnelles et ne les utilisons pas à des fins publicitaires.',
        ],
      },
      {
        heading: 'Avec qui nous les partageons',
        paragraphs: [
          "Uniquement avec les prestataires nécessaires au fonctionnement du service (hébergement, envoi d'e-mails et de SMS, réseaux de chaînes de blocs pour les transferts sur la chaîne) et avec les autorités lorsque la loi l'exige. Chaque prestataire ne reçoit que ce dont il a besoin pour sa mission.",
        ],
      },
      {
        heading: 'Durée de conservation',
        paragraphs: [
          "Les données de compte et les registres financiers sont conservés tant que votre compte existe, puis pendant la durée exigée par la réglementation financière. Les codes de vérification expirent au bout de 10 minutes. Les sessions déconnectées ne sont conservées qu'à titre de trace de sécurité.",
        ],
      },
      {
        heading: 'Vos droits',
        paragraphs: [
          "Vous pouvez consulter et corriger votre profil dans l'application, déconnecter n'importe quel appareil et nous demander une copie de vos données ou leur suppression lorsque la loi le permet. Pour cela, contactez le service client dans l'application.",
        ],
      },
      {
        heading: 'Sécurité',
        paragraphs: [
          "Les mots de passe sont hachés avec argon2id, les jetons de session ne sont stockés que sous forme d'empreintes, les connexions sont chiffrées et chaque opération sur votre solde est enregistrée dans un registre en partie double que personne ne peut modifier.",
        ],
      },
      {
        heading: 'Modifications',
        paragraphs: [
          "Si cette politique change, nous publierons ici la nouvelle version avec sa date et vous en informerons dans l'application avant son entrée en vigueur.",
        ],
      },
    ],
  },
  terms: {
    title: "Conditions d'utilisation",
    updated: 'Pas encore publiées',
    sections: [
      {
        heading: 'À paraître',
        paragraphs: [
          "Les conditions d'utilisation seront publiées ici avant l'ouverture du service au public. En attendant, veuillez lire la politique de confidentialité.",
        ],
      },
    ],
  },
};
