import type { LegalTexts } from './types.ts';

export const texts: LegalTexts = {
  privacy: {
    title: 'Datenschutzerklärung',
    updated: 'Zuletzt aktualisiert: 21. November 2026',
    sections: [
      {
        heading: 'Wer wir sind',
        paragraphs: [
          'Tradewind betreibt diesen Handels- und Wallet-Dienst. Diese Erklärung beschreibt, welche personenbezogenen Daten wir bei Ihrer Nutzung erheben, warum, wie lange wir sie speichern und welche Rechte Sie haben.',
        ],
      },
      {
        heading: 'Welche Daten wir erheben',
        paragraphs: [
          'Kontodaten: Ihre E-Mail-Adresse oder Telefonnummer, Ihr Passwort (nur als Einweg-Hash gespeichert), Ihr Anzeigename und Profilbild sowie der Einladungscode, mit dem Sie sich registriert haben.',
          'Daten zur Identitätsprüfung (KYC): Ihr Name, Ihre Staatsangehörigkeit, Art und Nummer Ihres Ausweisdokuments sowie Fotos Ihres Dokuments und Ihres Gesichts. Diese Dateien sind vertraulich: Nur Sie und die Mitarbeiter, die sie prüfen, können sie öffnen.',
          'Finanzdaten: Guthaben, Einzahlungen, Auszahlungen, Übertragungen, Umtauschvorgänge, Aufträge sowie die Adressen und Bankkarten, die Sie dafür verwenden.',
          'Technische Daten: die Geräte, mit denen Sie sich anmelden, IP-Adressen, Anmeldezeiten und die von Ihnen gewählte Sprache.',
        ],
      },
      {
        heading: 'Wofür wir sie verwenden',
        paragraphs: [
          'Um den Dienst zu erbringen: Ihr Konto und Ihre Mittel zu verwalten, die von Ihnen beauftragten Vorgänge auszuführen und Ihnen Ihren Verlauf anzuzeigen.',
          'Um Ihr Konto zu schützen: Bestätigungscodes, Sitzungsverwaltung, Erkennung ungewöhnlicher Anmeldungen und Betrugsprävention.',
          'Um gesetzliche Pflichten zu erfüllen, etwa die Identitätsprüfung und die Aufbewahrung von Unterlagen bei Finanzdienstleistungen.',
          'Wir verkaufen Ihre personenbezogenen Daten nicht und verwenden sie nicht für Werbung.',
        ],
      },
      {
        heading: 'An wen wir sie weitergeben',
        paragraphs: [
          'Nur an die Dienstleister, die wir für den Betrieb des Dienstes benötigen (Hosting, Versand von E-Mails und SMS, Blockchain-Netzwerke für On-Chain-Übertragungen), und an Behörden, wenn das Gesetz es verlangt. Jeder Dienstleister erhält nur das, was er für seine Aufgabe benötigt.',
        ],
      },
      {
        heading: 'Wie lange wir sie speichern',
        paragraphs: [
          'Konto- und Finanzdaten werden gespeichert, solange Ihr Konto besteht, und danach für den Zeitraum, den die Finanzvorschriften verlangen. Bestätigungscodes verfallen nach 10 Minuten. Abgemeldete Sitzungen werden nur als Sicherheitsprotokoll aufbewahrt.',
        ],
      },
      {
        heading: 'Ihre Rechte',
        paragraphs: [
          'Sie können Ihr Profil in der App einsehen und korrigieren, jedes Gerät abmelden und von uns eine Kopie Ihrer Daten oder, soweit gesetzlich zulässig, deren Löschung verlangen. Wenden Sie sich dazu in der App an den Kundenservice.',
        ],
      },
      {
        heading: 'Sicherheit',
        paragraphs: [
          'Passwörter werden mit argon2id gehasht, Sitzungstoken werden nur als Hashes gespeichert, Verbindungen sind verschlüsselt, und jeder Vorgang auf Ihrem Guthaben wird in einem Hauptbuch mit doppelter Buchführung erfasst, das niemand bearbeiten kann.',
        ],
      },
      {
        heading: 'Änderungen',
        paragraphs: [
          'Wenn sich diese Erklärung ändert, zeigen wir die neue Fassung hier mit ihrem Datum an und informieren Sie in der App, bevor sie in Kraft tritt.',
        ],
      },
    ],
  },
  terms: {
    title: 'Nutzungsbedingungen',
    updated: 'Noch nicht veröffentlicht',
    sections: [
      {
        heading: 'Veröffentlichung folgt',
        paragraphs: [
          'Die Nutzungsbedingungen werden hier veröffentlicht, bevor der Dienst für die Öffentlichkeit geöffnet wird. Bis dahin lesen Sie bitte die Datenschutzerklärung.',
        ],
      },
    ],
  },
};
