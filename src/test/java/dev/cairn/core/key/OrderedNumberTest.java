package dev.cairn.core.key;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class OrderedNumberTest {

    @Test
    void randomNumbersSortTheSameAsStringsAndAsNumbers() {
        Random random = new Random(42);
        List<BigDecimal> numbers = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            BigDecimal n = BigDecimal.valueOf(random.nextLong() % 1_000_000, random.nextInt(8) - 2);
            numbers.add(n);
        }
        List<BigDecimal> byString = numbers.stream().sorted(Comparator.comparing(OrderedNumber::encode)).toList();
        List<BigDecimal> byValue = numbers.stream().sorted().toList();
        for (int i = 0; i < numbers.size(); i++) {
            assertThat(byString.get(i)).isEqualByComparingTo(byValue.get(i));
        }
    }

    @Test
    void equalValuesWithDifferentScalesEncodeAlike() {
        assertThat(OrderedNumber.encode(new BigDecimal("1.50"))).isEqualTo(OrderedNumber.encode(new BigDecimal("1.5")));
        assertThat(OrderedNumber.encode(new BigDecimal("0.00"))).isEqualTo("1");
    }

    @Test
    void roundTrips() {
        for (String s : List.of("0", "1", "-1", "12.5", "-12.5", "0.0001", "-0.0001", "123456789012345678901234567890")) {
            assertThat(OrderedNumber.decode(OrderedNumber.encode(new BigDecimal(s)))).isEqualByComparingTo(s);
        }
    }
}
