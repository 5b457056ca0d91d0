// Numbers as the Persian pages write them, for every words module: one home, so that a digit is
// written the same way on every board and panel.

/** Western digits written as Persian ones: 10 as "۱۰".
 * @param {string | number} text */
export const faDigits = (text) => String(text).replace(/\d/g, (d) => "۰۱۲۳۴۵۶۷۸۹"[Number(d)]);

/** A decimal written in Persian: Persian digits and the Persian decimal point ("۱٫۵").
 * @param {string} text */
export const faNumber = (text) => faDigits(text).replace(".", "٫");
