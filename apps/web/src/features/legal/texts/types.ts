export interface LegalSection {
  heading: string;
  paragraphs: string[];
}

export interface LegalDocument {
  title: string;
  updated: string;
  sections: LegalSection[];
}

export interface LegalTexts {
  privacy: LegalDocument;
  terms: LegalDocument;
}
