export type ReferenceSize = 'small' | 'medium' | 'large';
