/**
 * Whether a passport is a wine's: the one rule every wine rule reads (docs/labelling.md#which-products-are-wine).
 *
 * A product is a wine when its category is `wine` or its passport data says `productType: "wine"`:
 * either way in is enough, and neither can switch the other off. The rules that follow from it:
 * the complete nutrition declaration (Reg. (EU) No 1308/2013 Art. 119 as amended by 2021/2117),
 * no fish declared (Reg. (EU) No 1169/2011 Annex II point 4(b)), the nutrition table per 100 ml,
 * the wine allergen rules of the list of ingredients (Reg. (EU) 2019/33 Art. 41(1), 48a) and the
 * actual alcoholic strength in whole or half units (Reg. (EU) 2019/33 Art. 44).
 *
 * No imports: the resolver, the dashboard and the services read it alike.
 */
export const isWine = (category: string | undefined | null, productType: unknown): boolean => category === 'wine' || productType === 'wine';
