import type { LegalTexts } from './types.ts';

export const texts: LegalTexts = {
  privacy: {
    title: 'Informativa sulla privacy',
    updated: 'Ultimo aggiornamento: 21 novembre 2026',
    sections: [
      {
        heading: 'Chi siamo',
        paragraphs: [
          'Tradewind gestisce questo servizio di negoziazione e portafoglio. La presente informativa spiega quali dati personali raccogliamo quando lo utilizzi, perché, per quanto tempo li conserviamo e quali diritti hai.',
        ],
      },
      {
        heading: 'Quali dati raccogliamo',
        paragraphs: [
          "Dati dell'account: il tuo indirizzo e-mail o numero di telefono, la tua password (conservata solo come hash unidirezionale), il tuo nome visualizzato e la tua immagine del profilo, e il codice invito con cui ti sei registrato.",
          "Dati di verifica dell'identità (KYC): nome, nazionalità, tipo e numero del documento, e foto del documento e del volto. Questi file sono privati: solo tu e il personale incaricato di esaminarli potete aprirli.",
          'Dati finanziari: saldi, depositi, prelievi, trasferimenti, conversioni, ordini e gli indirizzi e le carte bancarie che utilizzi per queste operazioni.',
          'Dati tecnici: i dispositivi da cui accedi, gli indirizzi IP, gli orari di accesso e la lingua che hai scelto.',
        ],
      },
      {
        heading: 'Perché li utilizziamo',
        paragraphs: [
          'Per fornire il servizio: gestire il tuo account e i tuoi fondi, eseguire le operazioni che richiedi e mostrarti la tua cronologia.',
          'Per proteggere il tuo account: codici di verifica, gestione delle sessioni, rilevamento di accessi insoliti e prevenzione delle frodi.',
          "Per adempiere agli obblighi di legge, come la verifica dell'identità e la conservazione della documentazione prevista per i servizi finanziari.",
          'Non vendiamo i tuoi dati personali e non li utilizziamo a fini pubblicitari.',
        ],
      },
      {
        heading: 'Con chi li condividiamo',
        paragraphs: [
          'Solo con i fornitori di cui abbiamo bisogno per gestire il servizio (hosting, invio di e-mail e SMS, reti blockchain per i trasferimenti on-chain) e con le autorità quando la legge lo richiede. Ogni fornitore riceve solo ciò che serve al suo compito.',
        ],
      },
      {
        heading: 'Per quanto tempo li conserviamo',
        paragraphs: [
          "I dati dell'account e i registri finanziari sono conservati finché il tuo account esiste e, successivamente, per il periodo previsto dalle normative finanziarie. I codici di verifica scadono dopo 10 minuti. Le sessioni disconnesse vengono conservate solo come registro di sicurezza.",
        ],
      },
      {
        heading: 'I tuoi diritti',
        paragraphs: [
          "Puoi visualizzare e correggere il tuo profilo nell'app, disconnettere qualsiasi dispositivo e chiederci una copia dei tuoi dati o, ove la legge lo consenta, la loro cancellazione. Per farlo, contatta il servizio clienti nell'app.",
        ],
      },
      {
        heading: 'Sicurezza',
        paragraphs: [
          'Le password sono protette con hash argon2id, i token di sessione sono conservati solo come hash, le connessioni sono cifrate e ogni operazione sul tuo saldo viene registrata in un libro contabile a partita doppia che nessuno può modificare.',
        ],
      },
      {
        heading: 'Modifiche',
        paragraphs: [
          "Se questa informativa cambia, pubblicheremo qui la nuova versione con la relativa data e te lo comunicheremo nell'app prima che entri in vigore.",
        ],
      },
    ],
  },
  terms: {
    title: 'Termini di servizio',
    updated: 'Non ancora pubblicati',
    sections: [
      {
        heading: 'Di prossima pubblicazione',
        paragraphs: [
          "I termini di servizio saranno pubblicati qui prima dell'apertura del servizio al pubblico. Fino ad allora, leggi l'informativa sulla privacy.",
        ],
      },
    ],
  },
};
