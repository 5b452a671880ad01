export interface Address {
  name: string;
  address: string;
}

export interface MailEnvelope {
  from: Address;
  to: Address[];
  cc?: Address[];
  subject?: string;
  date?: Date;
  messageId?: string;
}
