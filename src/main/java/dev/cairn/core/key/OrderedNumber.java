package dev.cairn.core.key;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Encodes any decimal number as a string whose byte order equals numeric order, so numbers in sort keys sort
 * correctly (negatives before zero before positives, 9 before 10, -1.5 before -1.2).
 * <p>Layout: a sign class ({@code 0} negative, {@code 1} zero, {@code 2} positive), then the decimal exponent
 * biased into four digits, then the significant digits. For negatives exponent and digits are complemented
 * and a terminator {@code ~} (above every digit) makes a shorter complemented mantissa sort after a longer one.
 */
public final class OrderedNumber {

    private static final int BIAS = 5000;
    private static final int MAX_EXPONENT = 4999;

    private OrderedNumber() {
    }

    public static String encode(BigDecimal value) {
        if (value.signum() == 0) {
            return "1";
        }
        BigDecimal abs = value.abs().stripTrailingZeros();
        String digits = abs.unscaledValue().toString();
        int exponent = digits.length() - abs.scale() - 1;
        if (exponent > MAX_EXPONENT || exponent < -MAX_EXPONENT) {
            throw new CairnException(new CairnError.MalformedRequest("number out of range for a key: " + value));
        }
        if (value.signum() > 0) {
            return "2" + pad(exponent + BIAS) + digits;
        }
        var complemented = new StringBuilder(digits.length() + 6).append('0').append(pad(2 * BIAS - 1 - (exponent + BIAS)));
        for (int i = 0; i < digits.length(); i++) {
            complemented.append((char) ('9' - digits.charAt(i) + '0'));
        }
        return complemented.append('~').toString();
    }

    public static BigDecimal decode(String encoded) {
        try {
            char sign = encoded.charAt(0);
            if (sign == '1' && encoded.length() == 1) {
                return BigDecimal.ZERO;
            }
            int biased = Integer.parseInt(encoded.substring(1, 5));
            String digits;
            int exponent;
            if (sign == '2') {
                exponent = biased - BIAS;
                digits = encoded.substring(5);
            } else if (sign == '0' && encoded.endsWith("~")) {
                exponent = (2 * BIAS - 1 - biased) - BIAS;
                var plain = new StringBuilder();
                for (char c : encoded.substring(5, encoded.length() - 1).toCharArray()) {
                    plain.append((char) ('9' - c + '0'));
                }
                digits = plain.toString();
            } else {
                throw new NumberFormatException(encoded);
            }
            if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit)) {
                throw new NumberFormatException(encoded);
            }
            BigDecimal magnitude = new BigDecimal(new BigInteger(digits), digits.length() - 1 - exponent);
            return sign == '2' ? magnitude : magnitude.negate();
        } catch (RuntimeException e) {
            throw new CairnException(new CairnError.MalformedRequest("not an ordered number: '" + encoded + "'"));
        }
    }

    private static String pad(int value) {
        String s = Integer.toString(value);
        return "0000".substring(s.length()) + s;
    }
}
